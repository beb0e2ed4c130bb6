/** Secrets never reach what the tool writes or posts. */
import { base64Alignments, REDACTED, redactDeep, redactingLogger, redactor } from '../../src/report/redact.js'

const redact = redactor(['sk-ant-key-0123456789', 'sk-ant-key-0123456789-longer', 'ghs_token_abcdefgh'])

test('every occurrence of every secret is replaced, the longest first', () => {
  expect(redact('key sk-ant-key-0123456789-longer and sk-ant-key-0123456789, token ghs_token_abcdefgh twice ghs_token_abcdefgh')).toBe(
    `key ${REDACTED} and ${REDACTED}, token ${REDACTED} twice ${REDACTED}`
  )
})

test('a report is redacted in its strings, nested and as keys, its other values untouched', () => {
  const report = { reason: 'saw ghs_token_abcdefgh', tests: [{ name: 'leaks sk-ant-key-0123456789', durationMs: 3, ok: true, message: null }], byTitle: { 'ghs_token_abcdefgh': 1 } }
  expect(redactDeep(report, redact)).toEqual({ reason: `saw ${REDACTED}`, tests: [{ name: `leaks ${REDACTED}`, durationMs: 3, ok: true, message: null }], byTitle: { [REDACTED]: 1 } })
})

test('a redacting logger redacts every level before its lines go on', () => {
  const lines: string[] = []
  const log = redactingLogger({ info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`), debug: (m) => lines.push(`debug ${m}`) }, redact)
  log.info('a sk-ant-key-0123456789')
  log.warn('b ghs_token_abcdefgh')
  log.error('d ghs_token_abcdefgh')
  log.debug('c sk-ant-key-0123456789-longer')
  expect(lines).toEqual([`info a ${REDACTED}`, `warn b ${REDACTED}`, `error d ${REDACTED}`, `debug c ${REDACTED}`])
})

test('with no secrets, text passes unchanged', () => {
  expect(redactor([])('nothing to hide')).toBe('nothing to hide')
})

describe('a secret in the forms a test could print it in', () => {
  const token = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a'
  const redactToken = redactor([token])
  const base64 = (text: string) => Buffer.from(text).toString('base64')

  test('as git credentials, x-access-token:<token>', () => {
    expect(redactToken(`https://x-access-token:${token}@github.com/acme/transport`)).toBe(`https://${REDACTED}@github.com/acme/transport`)
  })

  test('base64 of the bare token and of x-access-token:<token>, as actions/checkout writes it', () => {
    expect(redactToken(`token ${base64(token)} end`)).toBe(`token ${REDACTED} end`)
    expect(redactToken(`value basic ${base64(`x-access-token:${token}`)}`)).toBe(`value basic ${REDACTED}`)
  })

  test.each([0, 1, 2, 3, 4, 5])('inside a longer base64 text, %i byte(s) after its start: none of its own characters survive', (before) => {
    for (const after of ['', 'x', 'yz', ' and more text']) {
      const encoded = base64(`${'p'.repeat(before)}${token}${after}`)
      const shown = redactToken(`printed ${encoded}`)
      expect(shown).toContain(REDACTED)
      // At most the characters it shares with its neighbours are left: 2 before it and 3 after (with padding).
      const left = shown.slice('printed '.length).split(REDACTED)
      expect(left).toHaveLength(2)
      expect(left[0].length).toBeLessThanOrEqual(Math.ceil((before * 8) / 6))
      expect(left[1].replace(/=+$/, '').length).toBeLessThanOrEqual(Math.ceil((after.length * 8) / 6) + 1)
    }
  })

  test('base64Alignments keeps only the characters made of the text alone', () => {
    // At offset 0 all 8 characters are its own; shifted by 1 and 2 bytes, those shared with a neighbour go.
    expect(base64Alignments('abcdef')).toEqual(['YWJjZGVm', 'FiY2RlZ', 'hYmNkZW'])
    expect(base64(`Q${'abcdef'}Z`)).toContain(base64Alignments('abcdef')[1])
    expect(base64(`QR${'abcdef'}Z`)).toContain(base64Alignments('abcdef')[2])
  })

  test('an extraheader line is masked whatever it holds, a token the tool was never told about too', () => {
    const unknown = base64('x-access-token:ghs_not_known_to_the_tool_0123')
    expect(redactor([])(`[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${unknown}\n[core]\n\tbare = false`)).toBe(
      `[http "https://github.com/"]\n\textraheader = ${REDACTED}\n[core]\n\tbare = false`
    )
    expect(redactor([])(`http.https://github.com/.extraheader AUTHORIZATION: basic ${unknown}`)).not.toContain(unknown)
    expect(redactor([])(`http.https://github.com/.extraheader=AUTHORIZATION: basic ${unknown}`)).toBe(`http.https://github.com/.extraheader=${REDACTED}`)
  })

  test("an Authorization header's credentials are masked whatever they are, in any case and as a JSON or environment key", () => {
    const hide = redactor([])
    expect(hide('> GET /repos\n> Authorization: Bearer ghp_unknown0123456789\n> Accept: */*')).toBe(`> GET /repos\n> Authorization: Bearer ${REDACTED}\n> Accept: */*`)
    expect(hide('authorization: token abc.def.ghi')).toBe(`authorization: token ${REDACTED}`)
    expect(hide('{"authorization": "Basic dXNlcjpwYXNz"}')).toBe(`{"authorization": "Basic ${REDACTED}"}`)
    expect(hide('HTTP_AUTHORIZATION=Basic dXNlcjpwYXNz')).toBe(`HTTP_AUTHORIZATION=Basic ${REDACTED}`)
  })

  test('code and prose that only name the header stay as they are (a generated test is not corrupted)', () => {
    const hide = redactor([])
    const code = "assert.deepEqual(parse(['--auth=user:pa=ss'], options), { _: [], authorization: 'user:pa=ss' })"
    expect(hide(code)).toBe(code)
    expect(hide('it sends the Authorization: header')).toBe('it sends the Authorization: header')
  })
})
