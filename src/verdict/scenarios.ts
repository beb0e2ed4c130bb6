/**
 * Each test's scenario, from the titles the model gave when it wrote the file. A runner reports a test by
 * its full name (`describe › title`, `Class::test_name`, `suite title`, `test_name[param]`): the title the
 * model wrote is the end of it.
 */
import type { ClassifiedTest, SuiteFile, TestIntent } from '../domain.js'

export function withScenarios(tests: ClassifiedTest[], files: SuiteFile[]): ClassifiedTest[] {
  const intentsByFile = new Map(files.map((file) => [file.path, file.tests]))
  return tests.map((test) => ({ ...test, scenario: scenarioOf(test.name, intentsByFile.get(test.file) ?? []) }))
}

const SEPARATORS = [' › ', ' > ', '::', ' ', '.']

function scenarioOf(name: string, intents: TestIntent[]): string | null {
  const bare = name.replace(/\[[^\]]*\]$/, '') // a parametrized pytest case: test_x[a-1]
  const fits = (title: string) => bare === title || SEPARATORS.some((separator) => bare.endsWith(`${separator}${title}`))
  // A title copied from the source keeps its escapes (`'a\\b'`); the runner reports the string's value.
  const names = (title: string) => fits(title) || fits(title.replace(/\\(.)/g, '$1'))
  // The longest title that fits: "retries twice" must not claim "never retries twice".
  const [best] = intents.filter((intent) => names(intent.title)).sort((a, b) => b.title.length - a.title.length)
  return best?.scenario ?? null
}
