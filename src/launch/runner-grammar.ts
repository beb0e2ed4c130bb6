/**
 * How a runner's own command line reads (its option parser's rules, from the runners' option definitions),
 * to take a captured command line apart: which words are options and which are their values, so that a
 * file pattern is never mistaken for a value or a value for a file pattern.
 */

/** What an option does with the word after it. */
export type ValueKind =
  /** A switch: takes no value. */
  | 'switch'
  /** Takes the next word (or `=value`). */
  | 'value'
  /** Takes the next word unless it is an option (`--cov [SOURCE]`, vitest's `--api [port]`). */
  | 'optional'
  /** yargs' `array` type: takes every next word up to the next option (jest's `--roots a b`). */
  | 'list'

export interface Grammar {
  /** Option names as written (long without dashes, short letters) → the canonical name. */
  aliases: Record<string, string>
  /** Canonical names of options that take a value, and how; any other known option is a switch. */
  values: Record<string, ValueKind>
  /** Canonical names the parser knows as switches (yargs and mri then take a following `true`/`false`). */
  switches: Set<string>
  /** What an option the grammar does not know takes: mri (vitest) gives it the next word that is not an option. */
  unknown: 'switch' | 'optional'
  /** yargs and mri take `--no-x` as x turned off. */
  negation: boolean
  /** yargs (jest, ava) reads `--kebab-case` as `--camelCase`; mri (vitest) does so for names only, not for its boolean list. */
  camelCase: 'both' | 'names' | 'none'
  /** A switch followed by `true`/`false` takes it as its value (yargs, mri); argparse does not. */
  booleanWords: boolean
}

/**
 * The options of a runner's command line, in order, without those `dropped` says (with their values), and
 * without positional words (file patterns): the part of the command line that configures the run.
 */
export function keptOptions(words: string[], grammar: Grammar, dropped: (name: string) => boolean): string[] {
  const kept: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    // Everything after `--` is positional: file patterns.
    if (word === '--') break
    if (!word.startsWith('-') || word === '-') continue
    const taken = word.startsWith('--') ? longOption(words, i, grammar) : shortOptions(words, i, grammar, dropped)
    const consumed = words.slice(i, i + 1 + taken.values)
    i += taken.values
    if (taken.rebuilt !== undefined) {
      if (taken.rebuilt) kept.push(taken.rebuilt, ...consumed.slice(1))
    } else if (!dropped(taken.name)) kept.push(...consumed)
  }
  return kept
}

interface Taken {
  /** The canonical name (long options). */
  name: string
  /** How many words after this one are its value. */
  values: number
  /** A group of short switches rebuilt without the dropped ones ('' when none is left). */
  rebuilt?: string
}

function longOption(words: string[], at: number, grammar: Grammar): Taken {
  const [written, ...inline] = words[at].slice(2).split('=')
  if (grammar.negation && written.startsWith('no-') && inline.length === 0) return { name: canonical(written.slice(3), grammar), values: 0 }
  const name = canonical(written, grammar)
  if (inline.length > 0) return { name, values: 0 }
  return { name, values: valueWords(words, at, kindOf(written, name, grammar), grammar) }
}

/**
 * `-abc`: each letter an option; the first that takes a value takes the rest of the word, or the next word
 * when it is the last letter. Switches that are dropped are taken out of the group.
 */
function shortOptions(words: string[], at: number, grammar: Grammar, dropped: (name: string) => boolean): Taken {
  const [group, ...inline] = words[at].slice(1).split('=')
  let kept = ''
  for (let j = 0; j < group.length; j++) {
    const name = canonical(group[j], grammar)
    const kind = kindOf(group[j], name, grammar)
    const rest = group.slice(j + 1)
    if (kind !== 'switch' && kind !== undefined) {
      const values = rest || inline.length ? 0 : valueWords(words, at, kind, grammar)
      const option = `${group[j]}${rest}${inline.length ? `=${inline.join('=')}` : ''}`
      if (dropped(name)) return { name, values, rebuilt: kept && `-${kept}` }
      return { name, values, rebuilt: `-${kept}${option}` }
    }
    if (!dropped(name)) kept += group[j]
  }
  const values = inline.length === 0 && grammar.booleanWords && isBooleanWord(words[at + 1]) ? 1 : 0
  return { name: canonical(group, grammar), values, rebuilt: kept && `-${kept}${inline.length ? `=${inline.join('=')}` : ''}` }
}

function kindOf(written: string, name: string, grammar: Grammar): ValueKind | undefined {
  const known = grammar.values[name] ?? (grammar.switches.has(name) ? 'switch' : undefined)
  // mri matches its boolean list against the name as written: `--pass-with-no-tests` is not the boolean `passWithNoTests`.
  if (known === 'switch' && grammar.camelCase === 'names' && written !== name && written.length > 1 && !(written in grammar.aliases)) return grammar.unknown
  return known ?? grammar.unknown
}

function valueWords(words: string[], at: number, kind: ValueKind | undefined, grammar: Grammar): number {
  const next = words[at + 1]
  if (next === undefined) return 0
  if (kind === 'value') return 1
  if (kind === 'optional') return next.startsWith('-') ? 0 : 1
  if (kind === 'list') {
    let count = 0
    while (at + 1 + count < words.length && !words[at + 1 + count].startsWith('-')) count++
    return count
  }
  return grammar.booleanWords && isBooleanWord(next) ? 1 : 0
}

function isBooleanWord(word: string | undefined): boolean {
  return word === 'true' || word === 'false'
}

function canonical(written: string, grammar: Grammar): string {
  const name = grammar.camelCase === 'none' ? written : toCamelCase(written)
  return grammar.aliases[written] ?? grammar.aliases[name] ?? name
}

function toCamelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())
}

/** A grammar from option tables: `values` by kind, `switches`, and aliases (short letters, other spellings). */
export function grammar(spec: { values?: Partial<Record<ValueKind, string[]>>; switches?: string[]; aliases?: Record<string, string>; unknown?: Grammar['unknown']; negation?: boolean; camelCase?: Grammar['camelCase']; booleanWords?: boolean }): Grammar {
  const values: Record<string, ValueKind> = {}
  for (const [kind, names] of Object.entries(spec.values ?? {}) as [ValueKind, string[]][]) for (const name of names) values[name] = kind
  return {
    aliases: spec.aliases ?? {},
    values,
    switches: new Set(spec.switches ?? []),
    unknown: spec.unknown ?? 'switch',
    negation: spec.negation ?? true,
    camelCase: spec.camelCase ?? 'both',
    booleanWords: spec.booleanWords ?? true
  }
}
