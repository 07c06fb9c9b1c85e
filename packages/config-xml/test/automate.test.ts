import { describe, expect, it } from 'vitest';
import {
  AUTOMATE_ANSWER_MAX_BYTES,
  automateOrderXml,
  cleanRetInfo,
  ConfigXmlError,
  encodeAutomateOrder,
  parseConfig,
  readAutomateAnswer,
  readOrderIdentity,
  RET_INFO_MAX_CHARS,
  type AutomateOrder,
} from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

const ORDER: AutomateOrder = {
  requestId: '0b6f2a0e-6d1c-4d5e-9a3b-2f1e0c9d8b7a',
  timestamp: '2025-03-10T12:00:00.000Z',
  type: 'I',
  connectorExe: 'C:\\Nuxi & Co\\ExÃ©cutable <64>\\Synchro.exe',
  connectorIndex: 'DEMO-EB15',
  syncId: 'DEMOA001',
  requester: 'Connecteur',
};

describe('the legacy sync order', () => {
  it('is the Automate XML of the legacy protocol, on one line, without declaration', () => {
    expect(automateOrderXml(ORDER)).toBe(
      '<Automate><IDInterne_Demande>0b6f2a0e-6d1c-4d5e-9a3b-2f1e0c9d8b7a</IDInterne_Demande>' +
        '<Instruction>SYNCHRO</Instruction><TimeStamp>2025-03-10T12:00:00.000Z</TimeStamp>' +
        '<SYNCHRO><TypeSync>I</TypeSync>' +
        '<Connecteur_Exe>C:\\Nuxi &amp; Co\\ExÃ©cutable &lt;64&gt;\\Synchro.exe</Connecteur_Exe>' +
        '<Connecteur_Indice>DEMO-EB15</Connecteur_Indice><LCommande3/><IDSynchro>DEMOA001</IDSynchro>' +
        '<IDDeviceDemandeur>Connecteur</IDDeviceDemandeur></SYNCHRO></Automate>',
    );
  });

  it('writes an empty value as a self-closing element', () => {
    expect(automateOrderXml({ ...ORDER, connectorIndex: '' })).toContain('<Connecteur_Indice/>');
  });

  it('is sent as standard base64 of its UTF-8 bytes, without line breaks', () => {
    const payload = encodeAutomateOrder(ORDER);
    expect(payload).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(payload).toBe(Buffer.from(automateOrderXml(ORDER), 'utf8').toString('base64'));
    expect(Buffer.from(payload, 'base64').toString('utf8')).toContain('ExÃ©cutable');
  });

  it('takes Info/Exe and Info/Serial as the connector stores them (its text convention kept)', () => {
    expect(readOrderIdentity(parseConfig(FIXTURE))).toEqual({
      connectorExe: 'C:\\Mes Projets\\Synchro NuxiDev\\Exe\\ExÃ©cutable Windows 64 bits\\Synchro NuxiDev.exe',
      connectorIndex: 'DEMO-EB15-AB22-A1BA-5B66',
    });
    const withoutInfo = FIXTURE.replace(/<Info>[\s\S]*?<\/Info>/, '<Info/>');
    expect(readOrderIdentity(parseConfig(withoutInfo))).toEqual({ connectorExe: '', connectorIndex: '' });
  });
});

describe("the automate's answer", () => {
  it('reads RetSync and RetInfo, with or without declaration and whatever the root', () => {
    expect(
      readAutomateAnswer(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Automate><RetSync>1</RetSync><RetInfo>Demande reçue</RetInfo></Automate>',
      ),
    ).toEqual({ retSync: 1, retInfo: 'Demande reçue' });
    expect(readAutomateAnswer('<Reponse><X><RetSync> 0 </RetSync></X></Reponse>')).toEqual({
      retSync: 0,
      retInfo: null,
    });
    expect(readAutomateAnswer('<Automate><RetSync>oui</RetSync><RetInfo/></Automate>')).toEqual({
      retSync: null,
      retInfo: null,
    });
  });

  it('refuses what is not well-formed XML, a DTD and an unknown entity (nothing is expanded)', () => {
    const fault = (text: string) => {
      try {
        readAutomateAnswer(text);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigXmlError);
        return (err as ConfigXmlError).code;
      }
      throw new Error('no error');
    };
    expect(fault('RetSync=1')).toBeTruthy();
    expect(fault('<Automate><RetSync>1</RetSync>')).toBeTruthy();
    expect(
      fault(
        '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><Automate><RetInfo>&x;</RetInfo></Automate>',
      ),
    ).toBe('doctype');
    expect(fault('<Automate><RetInfo>&x;</RetInfo></Automate>')).toBe('entity');
    expect(fault(`<Automate><RetInfo>${'a'.repeat(AUTOMATE_ANSWER_MAX_BYTES)}</RetInfo></Automate>`)).toBe(
      'too-large',
    );
  });

  it('cleans RetInfo: one and two levels of escaping, /n markers, the connector text convention', () => {
    // In the XML: d&amp;apos;import (the parsed text holds d&apos;import) and /n between lines,
    // the whole in the connector convention sent as UTF-8 again.
    const xml =
      '<Automate><RetSync>1</RetSync><RetInfo>Synchronisation ComplÃ¨te demandÃ©e./nLa demande d&amp;apos;import est en file.</RetInfo></Automate>';
    expect(readAutomateAnswer(xml).retInfo).toBe(
      "Synchronisation Complète demandée.\nLa demande d'import est en file.",
    );
    expect(cleanRetInfo('l&amp;amp;apos;automate')).toBe("l'automate");
    expect(cleanRetInfo('n&#176; 12 &#x2014; &eacute;t&eacute; &quot;ok&quot;')).toBe('n° 12 — été "ok"');
    expect(cleanRetInfo('Cr&#195;&#169;ation')).toBe('Création');
  });

  it('keeps line breaks, drops control characters, trailing blanks and runs of empty lines', () => {
    expect(cleanRetInfo('  Ligne 1  \r\nLigne 2\u0007\n\n\n\nLigne 3\t \n')).toBe(
      'Ligne 1\nLigne 2\n\nLigne 3',
    );
    expect(cleanRetInfo('&#0; &#xD800; &foo; & seul')).toBe('&#0; &#xD800; &foo; & seul');
    expect(cleanRetInfo('Déjà en clair : élément')).toBe('Déjà en clair : élément');
  });

  it('cuts a very long message', () => {
    const long = cleanRetInfo('x'.repeat(RET_INFO_MAX_CHARS * 2));
    expect(long).toHaveLength(RET_INFO_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});
