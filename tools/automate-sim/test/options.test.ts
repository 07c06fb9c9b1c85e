import { describe, expect, it } from 'vitest';
import { OptionsError, parseArgs } from '../src/options.ts';

const base = ['--server', 'https://console.example', '--sync-id', 'DEMOA001', '--token', 'ctk_x'];

describe('parseArgs', () => {
  it('reads the required options and leaves the rest to the defaults', () => {
    expect(parseArgs(base)).toEqual({
      help: false,
      options: {
        server: 'https://console.example',
        syncId: 'DEMOA001',
        token: 'ctk_x',
        hang: false,
        offline: false,
        verbose: false,
      },
    });
  });

  it('reads every option, with --name value and --name=value', () => {
    const parsed = parseArgs([
      ...base,
      '--port=8085',
      '--host',
      '127.0.0.1',
      '--ip',
      '203.0.113.10',
      '--report-interval',
      '30',
      '--latency',
      '250',
      '--fail-rate=0.25',
      '--refuse',
      'Maintenance en cours',
      '--hang',
      '--offline',
      '--verbose',
      '--seed',
      '42',
      '--artefact-rate',
      '1',
      '--records',
      '600',
      '--transactions',
      '1500',
      '--machine-name',
      'SRV-ERP',
      '--automate-version',
      '6.12.0.1',
      '--connector-version',
      '6.20.0',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        server: 'https://console.example',
        syncId: 'DEMOA001',
        token: 'ctk_x',
        port: 8085,
        host: '127.0.0.1',
        ip: '203.0.113.10',
        reportIntervalSeconds: 30,
        latencyMs: 250,
        failRate: 0.25,
        refuse: 'Maintenance en cours',
        hang: true,
        offline: true,
        verbose: true,
        seed: 42,
        artefactRate: 1,
        recordsPerSync: 600,
        transactionsPerSync: 1500,
        machineName: 'SRV-ERP',
        automateVersion: '6.12.0.1',
        connectorVersion: '6.20.0',
      },
    });
  });

  it('takes the token from AUTOMATE_TOKEN when --token is absent', () => {
    const parsed = parseArgs(base.slice(0, 4), { AUTOMATE_TOKEN: 'ctk_env' });
    expect(parsed.help === false && parsed.options.token).toBe('ctk_env');
  });

  it('answers --help whatever else is there', () => {
    expect(parseArgs(['--help', '--port', 'x'])).toEqual({ help: true });
  });

  it.each([
    [[], "L'option --server est obligatoire."],
    [['--server', 'console.example'], "Option --server : « console.example » n'est pas une adresse"],
    [['--server', 'ftp://console.example'], 'http:// ou https://'],
    [['--server', 'https://c.example', '--sync-id', 'demo-1'], 'Option --sync-id : '],
    [
      ['--server', 'https://c.example', '--sync-id', 'DEMOA001'],
      "L'option --token (ou la variable AUTOMATE_TOKEN) est obligatoire.",
    ],
    [[...base, '--port', '70000'], 'Option --port : un entier entre 0 et 65535'],
    [[...base, '--port', '80.5'], 'Option --port : un entier'],
    [[...base, '--fail-rate', 'souvent'], 'Option --fail-rate : un nombre entre 0 et 1'],
    [[...base, '--latency'], "L'option --latency attend une valeur."],
    [[...base, '--refuse', '  '], 'le message de refus est vide'],
    [[...base, '--hang=1'], "L'option --hang ne prend pas de valeur."],
    [[...base, '--bogus'], 'Option inconnue --bogus.'],
    [[...base, 'extra'], 'Argument inattendu « extra ».'],
  ])('refuses %j with a French message', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(OptionsError);
    expect(() => parseArgs(argv)).toThrow(message);
  });
});
