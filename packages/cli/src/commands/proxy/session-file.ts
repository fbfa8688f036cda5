// The traffic the proxy saw, written as the inspector's session (`*.session.ndjson`: a header line, then one record per
// message), so `agentproto validate --format session` replays its checks. Writing never holds more than the limit:
// records that would wait past it are dropped, and the proxy says how many.

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { SessionHeader, SessionRecord } from '../inspect/session.js';

/** A session file being written. */
export class SessionFile {
  private readonly stream: WriteStream;
  /** Records dropped because too many bytes waited to be written. */
  dropped = 0;
  private failed: Error | undefined;

  private constructor(
    stream: WriteStream,
    private readonly backlogLimit: number,
  ) {
    this.stream = stream;
    this.stream.on('error', (error) => {
      this.failed = error;
    });
  }

  /** Opens `file` (replacing it) and writes the header; rejects when the file cannot be written. */
  static async open(file: string, header: SessionHeader, backlogLimit: number): Promise<SessionFile> {
    const stream = createWriteStream(file);
    await Promise.race([
      once(stream, 'open'),
      once(stream, 'error').then(([error]) => {
        throw error;
      }),
    ]);
    const session = new SessionFile(stream, backlogLimit);
    stream.write(`${JSON.stringify(header)}\n`);
    return session;
  }

  /** Appends a record, unless the file has failed or too much waits to be written. */
  write(record: SessionRecord): void {
    if (this.failed) return;
    if (this.stream.writableLength > this.backlogLimit) {
      this.dropped++;
      return;
    }
    this.stream.write(`${JSON.stringify(record)}\n`);
  }

  /** Writes what waits and closes the file; rejects with the error that stopped writing, if one did. */
  async close(): Promise<void> {
    if (!this.failed) {
      this.stream.end();
      await once(this.stream, 'close').catch(() => {});
    }
    if (this.failed) throw this.failed;
  }
}
