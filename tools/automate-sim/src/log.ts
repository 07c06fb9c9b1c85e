/**
 * One line per event: `<ISO time> <event> <message>`. The token is never given to the logger;
 * anything that could carry it (URLs, headers) is not logged either.
 */
export type LogSink = (line: string) => void;

export interface Logger {
  /** An event always shown. */
  info(event: string, message: string): void;
  /** A fault the simulator went on after. */
  warn(event: string, message: string): void;
  /** Detail shown with `--verbose` only. */
  debug(event: string, message: string): void;
}

export function createLogger(options: { verbose?: boolean; sink?: LogSink } = {}): Logger {
  const sink: LogSink = options.sink ?? ((line) => process.stdout.write(`${line}\n`));
  const write = (level: string, event: string, message: string) => {
    const text = message.replace(/\s*[\r\n]+\s*/g, ' ');
    sink(`${new Date().toISOString()} ${level}${event} ${text}`);
  };
  return {
    info: (event, message) => write('', event, message),
    warn: (event, message) => write('ATTENTION ', event, message),
    debug: (event, message) => {
      if (options.verbose) write('', event, message);
    },
  };
}
