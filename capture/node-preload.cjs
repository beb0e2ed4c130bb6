'use strict'
/*
 * The capture preload (src/launch/capture.ts): loaded through NODE_OPTIONS=--require (and the `node` shim
 * on PATH) into every Node process the repository's test command starts. In a process whose main module
 * is a known test runner's bin, or that node:test runs (`--test`), it appends one JSON line saying how the
 * runner was launched to $RTG_CAPTURE_FILE and exits 0 before any test runs (jest, when asked, prints its
 * configuration first: showJestConfig). Every other process gets a
 * start line and an exit line, so the tool can tell what ran before the runner (the build).
 * Plain CommonJS, no dependencies: it runs in the repository's Node, whatever its version.
 */
const fs = require('node:fs')
const path = require('node:path')

// Package name → runner, for a main module that is one of the package's own bins.
const RUNNER_PACKAGES = { jest: 'jest', 'jest-cli': 'jest', vitest: 'vitest', mocha: 'mocha', ava: 'ava', tap: 'tap', '@tapjs/run': 'tap', ...unsupported() }

/** Runners the tool has no adapter for: stopped too (the capture never runs a whole suite), and named. */
function unsupported() {
  const names = ['tape', 'jasmine', 'uvu', 'qunit', 'karma', 'cypress', 'zora', 'baretest', 'testem', 'intern', 'lab', 'borp', 'playwright']
  const packages = { '@hapi/lab': 'lab', '@playwright/test': 'playwright', 'jasmine-core': 'jasmine' }
  return { ...Object.fromEntries(names.map((name) => [name, name])), ...packages }
}
const MARK = '__rtgCapturePreload'
/** jest's configuration printed when asked for (one project's is a few kB): more is not a configuration the tool can use. */
const SHOWN_LIMIT_CHARS = 1024 * 1024
/** How long a jest asked for its configuration may take to print it (a TypeScript config compiles first). */
const SHOW_CONFIG_LIMIT_MS = 60 * 1000

if (process.env.RTG_CAPTURE_FILE && !globalThis[MARK] && isMainThread()) {
  globalThis[MARK] = true
  capture(process.env.RTG_CAPTURE_FILE)
}

function capture(file) {
  const startEnv = { ...process.env }
  keepPreloadForChildren()
  const nodeTest = process.execArgv.includes('--test')
  // Under --test, argv holds the file patterns as given, not a main module.
  const main = nodeTest ? null : mainModule()
  const runner = nodeTest ? 'node-test' : main && runnerOf(main)
  const common = { pid: process.pid, at: Date.now(), argv0: process.execPath, main, argv: process.argv.slice(main ? 2 : 1), execArgv: process.execArgv, cwd: process.cwd(), ancestors: ancestors() }
  if (runner) {
    append(file, { kind: 'runner', runner, ...common, env: startEnv })
    if (runner === 'jest' && process.env.RTG_CAPTURE_SHOW_CONFIG === '1' && showJestConfig(file)) return
    // Before any test file is loaded: the runner's own code has not run yet (a preload runs before the main).
    process.exit(0)
  }
  append(file, { kind: 'process', ...common })
  process.on('exit', () => append(file, { kind: 'exit', pid: process.pid, at: Date.now() }))
  catchProgrammaticJest(file, common)
}

/**
 * Asked for (the tool needs jest's resolved configuration, a JavaScript config it cannot read as text):
 * instead of exiting, this jest goes on as `jest --showConfig`, which prints its configuration and exits
 * without running a test, so the tool need not start jest again. jest reads its arguments from
 * process.argv (yargs): the flag goes first, before any `--`. What jest prints (stdout; stderr too, where
 * jest 22 prints it with `--json`) is kept and appended as one record when the process exits. The launch
 * is already recorded, and the process still exits 0 whatever jest does, as a stopped runner would: the
 * command goes on (`jest && mocha`), and a jest that fails or hangs (stopped after SHOW_CONFIG_LIMIT_MS)
 * costs only the shown configuration.
 */
function showJestConfig(file) {
  try {
    const shown = { stdout: '', stderr: '' }
    for (const name of ['stdout', 'stderr']) {
      process[name].write = function (chunk, encoding, callback) {
        if (shown[name].length < SHOWN_LIMIT_CHARS) shown[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
        const done = typeof encoding === 'function' ? encoding : callback
        if (typeof done === 'function') process.nextTick(done)
        return true
      }
    }
    // jest ends through process.exit, also from its own 'exit' listeners (exit-x), with 1 when it fails.
    const exit = process.exit
    process.exit = () => exit.call(process, 0)
    process.on('exit', () => {
      append(file, { kind: 'shown-config', pid: process.pid, stdout: shown.stdout.slice(0, SHOWN_LIMIT_CHARS), stderr: shown.stderr.slice(0, SHOWN_LIMIT_CHARS) })
      process.exitCode = 0
    })
    setTimeout(() => process.exit(0), SHOW_CONFIG_LIMIT_MS).unref()
    // What jest starts while it reads its configuration is not the test command's.
    delete process.env.RTG_CAPTURE_FILE
    process.argv.splice(2, 0, '--showConfig')
    return true
  } catch {
    // Stopped as any runner is; the tool asks jest itself.
    return false
  }
}

/**
 * A wrapper that runs jest in its own process (`require('jest').run(args)`, as kcd-scripts does) never
 * starts jest's bin: its `run` is recorded as jest's bin run with those arguments, then the process exits.
 */
function catchProgrammaticJest(file, common) {
  const Module = require('node:module')
  const load = Module._load
  Module._load = function (request, parent, isMain) {
    const exported = load.apply(this, arguments)
    if ((request === 'jest' || request === 'jest-cli') && exported && typeof exported.run === 'function' && !exported[MARK]) {
      const bin = jestBin(request, parent)
      if (bin) return wrapRun(exported, (args) => {
        // The wrapper itself is the last step on the way to jest.
        const ancestors = [...common.ancestors, { pid: process.pid, argv: commandLine(process.pid) || process.argv }]
        append(file, { kind: 'runner', runner: 'jest', ...common, ancestors, at: Date.now(), main: bin, argv: Array.isArray(args) ? args.map(String) : process.argv.slice(2), env: { ...process.env }, programmatic: true })
        process.exit(0)
      })
    }
    return exported
  }
}

function wrapRun(exported, record) {
  return new Proxy(exported, {
    get(target, key) {
      if (key === MARK) return true
      if (key === 'run') return (args) => record(args)
      return target[key]
    }
  })
}

/** The real path of the bin of the jest package `request` resolves to from `parent`. */
function jestBin(request, parent) {
  try {
    const manifestPath = require.resolve(`${request}/package.json`, { paths: [parent && parent.filename ? path.dirname(parent.filename) : process.cwd()] })
    const manifest = readJson(manifestPath)
    const bin = manifest && (typeof manifest.bin === 'string' ? manifest.bin : manifest.bin && manifest.bin.jest)
    return bin ? fs.realpathSync(path.resolve(path.dirname(manifestPath), bin)) : null
  } catch {
    return null
  }
}

/** A script that sets its own NODE_OPTIONS (`NODE_OPTIONS=--max-old-space-size=4096 jest`) still passes this preload on. */
function keepPreloadForChildren() {
  const own = process.env.RTG_CAPTURE_NODE_OPTIONS
  const current = process.env.NODE_OPTIONS || ''
  if (own && !current.includes(own)) process.env.NODE_OPTIONS = current ? `${current} ${own}` : own
}

function isMainThread() {
  try {
    return require('node:worker_threads').isMainThread
  } catch {
    return true
  }
}

/** The real path of the main module, or null (`node -e`, `node --test` without a file, the REPL). */
function mainModule() {
  if (process.execArgv.some((arg) => /^(-e|-p|--eval|--print)(=|$)/.test(arg))) return null
  const given = process.argv[1]
  if (!given) return null
  for (const candidate of [given, `${given}.js`, `${given}.cjs`, `${given}.mjs`]) {
    try {
      const real = fs.realpathSync(path.resolve(candidate))
      if (fs.statSync(real).isFile()) return real
    } catch {
      // Not this one.
    }
  }
  return null
}

/** The runner whose package lists `main` among its bins, or null. */
function runnerOf(main) {
  let dir = path.dirname(main)
  for (let depth = 0; depth < 6; depth++) {
    const manifest = readJson(path.join(dir, 'package.json'))
    // A nameless package.json is a build's marker (tshy's dist/esm/package.json: `{"type": "module"}`), not the package.
    if (manifest && typeof manifest.name === 'string') {
      const runner = RUNNER_PACKAGES[manifest.name]
      if (!runner) return null
      const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin || {})
      return bins.some((bin) => path.resolve(dir, String(bin)) === main) ? runner : null
    }
    const parent = path.dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
  return null
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/**
 * The processes between the capture's root shell and this one (Linux /proc), outermost first: how the
 * runner was reached. Empty when this is the root, or the walk never meets it (no /proc, or not ours).
 */
function ancestors() {
  const root = Number(process.env.RTG_CAPTURE_ROOT)
  const chain = []
  if (!root || process.pid === root) return chain
  // In the sandbox the root shell is its PID namespace's first process: pid 1.
  for (let pid = process.ppid, depth = 0; pid > 0 && depth < 32; depth++, pid = parentOf(pid)) {
    const argv = commandLine(pid)
    if (!argv) return []
    chain.unshift({ pid, argv })
    if (pid === root) return chain
  }
  return []
}

function commandLine(pid) {
  try {
    const parts = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    // A process that set its title (npm) pads its command line with NULs.
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
    return parts
  } catch {
    return null
  }
}

function parentOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command name in parentheses (which may hold spaces): state, then ppid.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return 0
  }
}

function append(file, record) {
  try {
    fs.appendFileSync(file, `${JSON.stringify(record)}\n`)
  } catch {
    // The capture must never break the repository's own command.
  }
}
