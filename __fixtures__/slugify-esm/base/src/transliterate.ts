/** Latin letters without their accents, and the few letters Unicode does not decompose. */

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'TH',
  '&': ' and '
}

// Combining marks left over once a letter is decomposed (é → e + ◌́).
const COMBINING_MARKS = /[\u0300-\u036f]/g

export function transliterate(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(/[ßæÆœŒøØłŁđĐþÞ&]/g, (char) => SPECIAL[char] ?? char)
}
