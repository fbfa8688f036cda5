// A failing request as a curl command a user can paste: method, URL, headers and body, each quoted for a POSIX shell.
import { type Probe, probePath } from './probe.js';

/** Quotes a word for a POSIX shell (single quotes; a single quote inside becomes '\''). */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The curl command that sends `probe` to the agent at `baseUrl`. */
export function curlCommand(
  probe: Probe,
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
): string {
  const url = `${baseUrl.replace(/\/$/, '')}${probePath(probe)}`;
  const parts = ['curl', '-sS', '-i', '-X', probe.operation.method, shellQuote(url)];
  for (const [k, v] of Object.entries(headers)) parts.push('-H', shellQuote(`${k}: ${v}`));
  const b = probe.body;
  let input = '';
  if (b?.kind === 'json' || b?.kind === 'text') {
    parts.push('-H', shellQuote(`content-type: ${b.mediaType}`));
    parts.push('--data-binary', shellQuote(b.kind === 'json' ? JSON.stringify(b.value) : b.text));
  } else if (b?.kind === 'form') {
    for (const [k, v] of Object.entries(b.fields)) parts.push('-F', shellQuote(`${k}=${v}`));
    const files = Object.entries(b.files);
    // One file part reads standard input; curl takes one `@-` per command.
    files.forEach(([k, v], i) => {
      if (i === 0) input = `printf %s ${shellQuote(v)} | `;
      parts.push('-F', shellQuote(i === 0 ? `${k}=@-;filename=conformance.txt` : `${k}=${v}`));
    });
  }
  return input + parts.join(' ');
}
