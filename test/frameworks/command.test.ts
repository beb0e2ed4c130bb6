import { SettingsError } from '../../src/errors.js'
import { expandCommand, splitCommandLine } from '../../src/frameworks/command.js'

test('a command line is split like a shell splits plain words and quotes', () => {
  expect(splitCommandLine(`TZ=UTC npx jest --config "jest config.js" 'a b' c\\ d {files}`)).toEqual(['TZ=UTC', 'npx', 'jest', '--config', 'jest config.js', 'a b', 'c d', '{files}'])
  expect(splitCommandLine(`node -e "console.log(\\"x\\")"`)).toEqual(['node', '-e', 'console.log("x")'])
  expect(splitCommandLine(`pytest ''`)).toEqual(['pytest', ''])
})

test.each([['npm test && rm -rf /', '&'], ['jest $(cat files)', '$'], ['jest | tee log', '|'], ['jest > out', '>']])('"%s" needs a shell and is refused', (text, char) => {
  expect(() => splitCommandLine(text)).toThrow(SettingsError)
  expect(() => splitCommandLine(text)).toThrow(`needs a shell (${char})`)
})

test('unclosed quotes and empty commands are refused', () => {
  expect(() => splitCommandLine('jest "x')).toThrow('has an unclosed "')
  expect(() => splitCommandLine('   ')).toThrow('the command is empty')
})

test('expanding puts env first, files at the placeholder (or the end), reporter arguments last', () => {
  expect(expandCommand(['TZ=UTC', 'A=b=c', 'npx', 'jest', '{files}', '--forceExit'], ['t/a.js', 't/b.js'], ['--json'])).toEqual({
    command: 'npx',
    args: ['jest', 't/a.js', 't/b.js', '--forceExit', '--json'],
    env: { TZ: 'UTC', A: 'b=c' }
  })
  expect(expandCommand(['npx', 'mocha'], ['t/a.js'], ['--reporter', 'json'])).toEqual({ command: 'npx', args: ['mocha', 't/a.js', '--reporter', 'json'], env: {} })
  expect(() => expandCommand(['TZ=UTC'], [], [])).toThrow('only variable assignments')
})
