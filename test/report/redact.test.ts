/** Secrets never reach what the tool writes or posts. */
import { REDACTED, redactDeep, redactingLogger, redactor } from '../../src/report/redact.js'

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
