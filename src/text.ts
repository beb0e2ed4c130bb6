/** Pure text functions shared by every output: what untrusted text may keep on its way to a reader. */

// Terminal escape sequences, in their 7-bit (ESC …) and 8-bit (C1) forms: OSC, DCS, SOS, PM and APC strings
// up to their terminator (OSC 52 writes the clipboard, OSC 8 hides a link), CSI sequences (cursor moves,
// screen clears, colours), then any other two-character escape.
const STRING_SEQUENCE = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c)/g
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g
const SHORT_ESCAPE = /\u001b[\u0020-\u002f]*[\u0030-\u007e]/g
// What is left of C0 and C1 (a lone ESC, a carriage return that would overwrite the line, a bell), but \t and \n.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * Text for a terminal, from untrusted sources (the model, issues, file names, test output): no escape
 * sequence and no control character but tab and newline reaches it, so it can only print what it says.
 */
export function forTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(STRING_SEQUENCE, '').replace(CSI_SEQUENCE, '').replace(SHORT_ESCAPE, '').replace(CONTROL, '')
}
