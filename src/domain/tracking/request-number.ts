// Carrier numbers are printable text. Invisible and look-alike characters (controls, zero-width and
// bidi marks, emoji, lone surrogates) would make a number that looks right match nothing, or spoof
// another one in a list, so they are refused with the character named.

const KINDS: [RegExp, string][] = [
  [/\p{Cs}/u, 'a lone surrogate (broken UTF-16)'],
  [/[\p{Cc}\p{Zl}\p{Zp}]/u, 'a control character or line break'],
  [/\p{Cf}/u, 'an invisible formatting character (zero-width or bidi)'],
  [/[\p{Co}\p{Cn}]/u, 'a private-use or unassigned character'],
  [/[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\uFE00-\uFE0F]/u, 'an emoji'],
];

/** Why `text` cannot be a request number, or undefined when its characters are all fine. */
export function requestNumberCharacterProblem(text: string): string | undefined {
  for (const char of text) {
    const kind = KINDS.find(([re]) => re.test(char));
    if (kind) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return `request_number contains U+${code}, ${kind[1]}; send the number as printed on the document.`;
    }
  }
  return undefined;
}
