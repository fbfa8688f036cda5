// Colours for text written to a terminal. Whether to colour is the stream's own answer (`hasColors()`), which
// honours NO_COLOR, FORCE_COLOR and TERM=dumb; pipes, files and CI logs get plain text.

/** The styles the CLI uses, as SGR codes: on, off. */
const STYLES = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;

/** A style name. */
export type Style = keyof typeof STYLES;

/** Paints text in a style, or leaves it as it is. */
export type Paint = (style: Style, text: string) => string;

/** Leaves text as it is. */
export const plain: Paint = (_, text) => text;

/** Paints with SGR escape codes. */
export const ansi: Paint = (style, text) => `\u001b[${STYLES[style][0]}m${text}\u001b[${STYLES[style][1]}m`;

/** The paint for a stream: colours only when it is a terminal that has them. */
export function paintFor(stream: NodeJS.WriteStream): Paint {
  return stream.isTTY && stream.hasColors?.() ? ansi : plain;
}
