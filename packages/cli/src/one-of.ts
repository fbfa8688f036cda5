// The guard that turns an option's text into one of a fixed list of choices (a reporter, a level, a party). Its own
// file because several commands check their options against such lists, and with it none needs a cast to do so.

/** Whether `value` is one of `choices`; when it is, its type narrows to theirs. */
export function isOneOf<T extends string>(choices: readonly T[], value: string): value is T {
  const list: readonly string[] = choices;
  return list.includes(value);
}
