// XML text for the JUnit reporters (`agentproto validate --reporter junit`, the conformance kit's junit reporter):
// one escaping rule, so both write the same XML for the same text.

/**
 * Escapes text for XML 1.0 content and attribute values: the five predefined entities, and control characters
 * dropped (XML 1.0 cannot carry them even escaped, §2.2), tab and line breaks kept.
 */
export function escapeXml(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch < ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') continue;
    out += XML_ENTITIES[ch] ?? ch;
  }
  return out;
}

const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
