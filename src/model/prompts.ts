/**
 * Prompt templates, loaded from the action's own `prompts/` folder (found from this code's location),
 * never from the repository under test.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type StagePrompt = 'analyse' | 'scenarios' | 'write-tests' | 'concerns' | 'repair' | 'strengthen'
export type PromptName = 'system' | 'reading-tools' | 'reading-none' | 'context' | 'task' | 'concerns-task' | 'repair-task' | 'strengthen-task' | StagePrompt

let promptsDir: string | undefined

/** Walks up from this module (src/model or the bundle in dist/…) to the folder holding action.yml. */
export function actionRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'action.yml')) && existsSync(join(dir, 'prompts'))) return dir
    if (dirname(dir) === dir) throw new Error(`Cannot find the action's prompts/ folder above ${from}`)
  }
}

export function loadPrompt(name: PromptName): string {
  promptsDir ??= join(actionRoot(), 'prompts')
  return readFileSync(join(promptsDir, `${name}.md`), 'utf8')
}

/** Fills `{{name}}` slots; a slot without a value is a programming error, not a silent blank. */
export function renderPrompt(name: PromptName, values: Record<string, string>): string {
  return loadPrompt(name).replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`Prompt ${name} needs a value for {{${key}}}`)
    return values[key]
  })
}
