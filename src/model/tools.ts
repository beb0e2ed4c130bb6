/** The tools the model answers through: each stage's output as a JSON schema, validated on arrival. */
import type { SuiteFile } from '../domain.js'
import type { ToolDefinition } from './model-port.js'

/** Bounds on one write_test_files answer: a suite is a few files of test code, never a dump. */
export const SUITE_LIMITS = { files: 20, fileBytes: 200 * 1024, totalBytes: 1024 * 1024 }

const text = { type: 'string', minLength: 1 }

/** At most this many concerns in a run (analysis and scenario stage together): each becomes a test run at head. */
export const MAX_FIX_CONCERNS = 5

/** Inputs the fixed code still gets wrong: the analysis records them, and the scenario stage adds those it finds while planning. */
const fixConcernsSchema = (description: string) => ({
  type: 'array',
  maxItems: MAX_FIX_CONCERNS,
  description,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['input', 'expected', 'actual', 'where'],
    properties: {
      input: { ...text, description: 'The concrete call with its arguments, as code only (the reasoning goes in actual).' },
      expected: { ...text, description: 'What should happen for that input, in one sentence.' },
      actual: { ...text, description: 'What the fixed code does instead, and through which lines, in one or two sentences.' },
      where: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'function'],
        properties: {
          file: { ...text, description: 'Repository-relative path of the file.' },
          function: { ...text, description: 'The function that goes wrong.' }
        }
      }
    }
  }
})

export const ROOT_CAUSE_TOOL: ToolDefinition = {
  name: 'record_root_cause',
  description: 'Record the root-cause analysis of the bug fix: one entry per distinct defect.',
  input_schema: {
    type: 'object',
    additionalProperties: false,
    required: ['summary', 'defects'],
    properties: {
      summary: { ...text, description: 'One or two sentences: the bug and its fix.' },
      defects: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['observedFailure', 'rootCause', 'fixMechanism', 'bugClass', 'blastRadius', 'sharedState'],
          properties: {
            observedFailure: text,
            rootCause: text,
            fixMechanism: text,
            bugClass: { ...text, description: 'The class of bug in 2-4 words.' },
            blastRadius: { type: 'array', minItems: 3, maxItems: 6, items: text },
            sharedState: { type: 'boolean' }
          }
        }
      },
      fixConcerns: fixConcernsSchema('Usually empty. Only inputs the FIXED code demonstrably still gets wrong, each traced through the fixed code.')
    }
  }
}

export const SCENARIOS_TOOL: ToolDefinition = {
  name: 'record_scenarios',
  description: 'Record 6-9 ranked regression test scenarios inside the blast radius.',
  input_schema: {
    type: 'object',
    additionalProperties: false,
    required: ['scenarios'],
    properties: {
      scenarios: {
        type: 'array',
        minItems: 6,
        maxItems: 9,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'verifies', 'setup', 'assertion', 'priority', 'riskIfSkipped', 'failsBeforeFix', 'kind'],
          properties: {
            name: text,
            verifies: text,
            setup: text,
            assertion: text,
            priority: { enum: ['P0', 'P1', 'P2'] },
            riskIfSkipped: text,
            failsBeforeFix: { type: 'boolean', description: 'True when this test must fail against the pre-fix code.' },
            kind: { enum: ['regression', 'boundary', 'state-isolation', 'neighbour'] }
          }
        }
      },
      fixConcerns: fixConcernsSchema(
        'Usually empty. Inputs the FIXED code demonstrably still gets wrong that the analysis did not record (or wrongly counted as handled), found while planning, each traced through the fixed code. Never a scenario: scenarios hold for the fixed code.'
      )
    }
  }
}

export const TEST_FILES_TOOL: ToolDefinition = {
  name: 'write_test_files',
  description: 'Return the complete content of every test file of the regression suite.',
  input_schema: {
    type: 'object',
    additionalProperties: false,
    required: ['files'],
    properties: {
      files: {
        type: 'array',
        minItems: 1,
        maxItems: SUITE_LIMITS.files,
        description: `At most ${SUITE_LIMITS.files} files of at most ${SUITE_LIMITS.fileBytes / 1024} KB each.`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['path', 'content', 'tests'],
          properties: {
            path: { ...text, description: 'Repository-relative path of the test file.' },
            content: text,
            tests: {
              type: 'array',
              description: 'Every test in the file, with the scenario it covers.',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['title', 'scenario'],
                properties: {
                  title: { ...text, description: 'The test\'s title as the runner reports it: the value of the string given to it/test, or the test function\'s name.' },
                  scenario: { ...text, description: 'The name of the scenario the test covers.' }
                }
              }
            }
          }
        }
      }
    }
  }
}

/**
 * Every stage's answer tool, in a fixed order: each request of a run offers all of them (and then the read
 * tools), so the prompt cache's prefix is the same from the first stage to the last.
 */
export const ANSWER_TOOLS: readonly ToolDefinition[] = [ROOT_CAUSE_TOOL, SCENARIOS_TOOL, TEST_FILES_TOOL]

/** Sizes over SUITE_LIMITS, as validation problems (the model gets one retry); the schema caps the count. */
export function suiteSizeProblems(files: SuiteFile[]): string[] {
  const problems: string[] = []
  const sizes = files.map((file) => Buffer.byteLength(file.content, 'utf8'))
  files.forEach((file, index) => {
    if (sizes[index] > SUITE_LIMITS.fileBytes) problems.push(`${file.path} is ${sizes[index]} bytes: at most ${SUITE_LIMITS.fileBytes} are allowed per file`)
  })
  const total = sizes.reduce((sum, size) => sum + size, 0)
  if (total > SUITE_LIMITS.totalBytes) problems.push(`the files hold ${total} bytes together: at most ${SUITE_LIMITS.totalBytes} are allowed`)
  return problems
}
