// A failing request as a curl command a user can paste: method, URL, headers and body, each quoted for a POSIX shell.
import { type Probe, probePath, wireBody } from './probe.js';

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
  const wire = wireBody(probe);
  let input = '';
  if (wire && 'form' in wire) {
    for (const [k, v] of Object.entries(wire.form.fields)) parts.push('-F', shellQuote(`${k}=${v}`));
    // One file part reads standard input; curl takes one `@-` per command.
    Object.entries(wire.form.files).forEach(([k, v], i) => {
      if (i === 0) input = `printf %s ${shellQuote(v)} | `;
      parts.push('-F', shellQuote(i === 0 ? `${k}=@-;filename=conformance.txt` : `${k}=${v}`));
    });
  } else if (wire)
    parts.push('-H', shellQuote(`content-type: ${wire.mediaType}`), '--data-binary', shellQuote(wire.text));
  return input + parts.join(' ');
}
