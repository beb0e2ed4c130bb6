/** Untrusted text placed in GitHub markdown as text: each attack the issue names, rendered inert. */
import { cell, inertText, inlineCode } from '../../src/report/markdown-text.js'

const ZW = '\u200B'

test.each([
  ['</details>', '&lt;/details&gt;'],
  ['an unclosed <!-- hides the rest', 'an unclosed &lt;!-- hides the rest'],
  ['<h1>✅ fail-to-pass (forged)</h1>', '&lt;h1&gt;✅ fail-to-pass (forged)&lt;/h1&gt;'],
  ['&lt;b&gt; is an entity', '&amp;lt;b&amp;gt; is an entity'],
  ['ping @octocat and @acme/security', `ping @${ZW}octocat and @${ZW}acme/security`],
  ['see [the fix](https://evil.example)', `see \\[the fix\\](https:${ZW}//evil.example)`],
  ['![pixel](https://evil.example/t.png)', `!\\[pixel\\](https:${ZW}//evil.example/t.png)`],
  ['<https://evil.example> and https://evil.example and www.evil.example', `&lt;https:${ZW}//evil.example&gt; and https:${ZW}//evil.example and www${ZW}.evil.example`],
  ['closes #12 and mail@evil.example', `closes #${ZW}12 and mail@${ZW}evil.example`],
  ['`code` and ``two``', '\\`code\\` and \\`\\`two\\`\\`'],
  ['a \\[ kept backslash', 'a \\\\\\[ kept backslash'],
  ['**✅ fail-to-pass** ~~no~~ _it_ snake_case_name', '\\*\\*✅ fail-to-pass\\*\\* \\~\\~no\\~\\~ \\_it\\_ snake_case_name'],
  ['# ✅ fail-to-pass (forged)', `\\# ✅ fail-to-pass (forged)`],
  ['- a list\n\n## a heading\n| a | row |', '\\- a list ## a heading | a | row |'],
  ['1. first', '1\\. first'],
  ['   > quoted', '&gt; quoted']
])('prose %j is text', (untrusted, inert) => {
  expect(inertText(untrusted)).toBe(inert)
})

test('prose in a table cell: its pipes escaped once, a backslash before one kept as text', () => {
  expect(cell(inertText('a | b'))).toBe('a \\| b')
  expect(cell(inertText('a \\| b'))).toBe('a \\\\\\| b')
})

test.each([
  ['plain title', '`plain title`'],
  ['uses `retry()` twice', '`` uses `retry()` twice ``'],
  ['ends with ```', '```` ends with ``` ````'],
  ['`', '`` ` ``'],
  [' padded ', '`  padded  `'],
  ['</details> <!-- @octocat [x](y) ![i](j)', '`</details> <!-- @octocat [x](y) ![i](j)`'],
  ['two\nlines', '`two lines`'],
  ['', '` `']
])('title or path %j as inline code no backtick inside can close', (untrusted, code) => {
  expect(inlineCode(untrusted)).toBe(code)
})

test('a title in a table cell: a pipe inside the code span is escaped for the table', () => {
  expect(cell(inlineCode('a | b'))).toBe('`a \\| b`')
})
