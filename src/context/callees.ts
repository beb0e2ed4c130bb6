/**
 * What the changed code calls from a module it imports: the names it binds from that module and uses, and
 * where the module defines them. A module too large to show whole is then shown by those definitions (one
 * level deep), not by its export names alone: a test calls through them and builds its inputs with them.
 */
import { escapeRegExp } from '../regexp.js'

/** The names a file binds from `specifier`: `local → exported` pairs, and namespace or default-object aliases. */
export interface ImportBindings {
  named: Map<string, string>
  namespaces: string[]
}

/** Bindings from `import … from 'spec'` and `const … = require('spec')`. */
export function importBindings(content: string, specifier: string): ImportBindings {
  const spec = escapeRegExp(specifier)
  const named = new Map<string, string>()
  const namespaces: string[] = []
  const addList = (list: string, separator: RegExp) => {
    for (const item of list.split(',')) {
      const [exported, local = exported] = item.trim().replace(/^type\s+/, '').split(separator).map((part) => part.trim())
      if (/^[A-Za-z_$][\w$]*$/.test(exported) && /^[A-Za-z_$][\w$]*$/.test(local)) named.set(local, exported)
    }
  }
  for (const [, clause] of content.matchAll(new RegExp(`\\bimport\\s+(?!type\\b)([^;'"]*?)\\s+from\\s+['"]${spec}['"]`, 'g'))) {
    const list = /\{([^}]*)\}/.exec(clause)?.[1]
    if (list) addList(list, /\s+as\s+/)
    const alias = /\*\s*as\s+([A-Za-z_$][\w$]*)/.exec(clause)?.[1] ?? /^([A-Za-z_$][\w$]*)/.exec(clause)?.[1]
    if (alias) namespaces.push(alias)
  }
  for (const [, target] of content.matchAll(new RegExp(`\\b(?:const|let|var)\\s+([^=;]+?)\\s*=\\s*require\\(\\s*['"]${spec}['"]\\s*\\)`, 'g'))) {
    const list = /^\{([^}]*)\}$/.exec(target.trim())?.[1]
    if (list) addList(list, /\s*:\s*/)
    else if (/^[A-Za-z_$][\w$]*$/.test(target.trim())) namespaces.push(target.trim())
  }
  return { named, namespaces }
}

const IMPORT_STATEMENT = /^[ \t]*(?:import\s[^;]*?\sfrom\s*['"][^'"\n]+['"]|(?:const|let|var)\s[^=;]+=\s*require\(\s*['"][^'"\n]+['"]\s*\))/gm

/** The exported names `code` uses through `bindings`: a bound name it mentions, or `alias.name`. */
export function usedNames(bindings: ImportBindings, code: string): string[] {
  // The import statements name every binding: only the code's use of them counts.
  const body = code.replace(IMPORT_STATEMENT, '')
  const words = new Set(body.match(/[A-Za-z_$][\w$]*/g) ?? [])
  const used = [...bindings.named].filter(([local]) => words.has(local)).map(([, exported]) => exported)
  for (const alias of bindings.namespaces) {
    for (const [, name] of body.matchAll(new RegExp(`(?<![\\w$.])${escapeRegExp(alias)}\\.([A-Za-z_$][\\w$]*)`, 'g'))) used.push(name)
  }
  return [...new Set(used)]
}

const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'await', 'super', 'import', 'require', 'print', 'len'])

/** The names `code` calls, constructs or extends: `name(`, `new Name`, `extends Name`, Python's `class A(Base)`. */
export function calledNames(code: string): string[] {
  const names = [
    // A call, not a definition (`def name(`, `function name(`, `class Name(`).
    ...[...code.matchAll(/(?<![\w$.]|\b(?:def|function|class)\s+)([A-Za-z_$][\w$]*)\s*\(/g)].map((match) => match[1]),
    ...[...code.matchAll(/\b(?:new|extends)\s+([A-Za-z_$][\w$]*)/g)].map((match) => match[1]),
    ...[...code.matchAll(/^\s*class\s+\w+\(([\w\s,]+)\)/gm)].flatMap((match) => match[1].split(',').map((base) => base.trim()))
  ]
  return [...new Set(names.filter((name) => name && !NOT_CALLS.has(name)))]
}

/**
 * The 1-based lines where `content` defines any of `names` at its top level (or as an `exports.` property);
 * with `nested`, also inside other functions (a module whose code lives in one large function).
 */
export function definitionLines(content: string | readonly string[], names: string[], { nested = false } = {}): number[] {
  if (names.length === 0) return []
  const name = `(?:${names.map(escapeRegExp).join('|')})`
  const indent = nested ? '[ \\t]*' : ''
  const definition = new RegExp(
    [
      `^${indent}(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:function\\*?|class|interface|type|enum)\\s+${name}\\b`,
      `^${indent}(?:export\\s+)?(?:const|let|var)\\s+${name}\\s*[=:]`,
      `^(?:module\\.)?exports\\.${name}\\s*=`,
      `^${indent}(?:async\\s+)?def\\s+${name}\\s*\\(`,
      `^${indent}class\\s+${name}\\b`
    ].join('|')
  )
  const lines = typeof content === 'string' ? content.split('\n') : content
  return lines.flatMap((line, index) => (definition.test(line) ? [index + 1] : []))
}
