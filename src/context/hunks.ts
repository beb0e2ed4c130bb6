/**
 * A changed file's hunks as the model sees them, within an allowance. Each hunk is cut into pieces, one per
 * run of changed lines with the context before it, and the allowance is shared among the pieces: a
 * one-line fix beside a rewritten 100,000-line table keeps all its lines, and the table is cut.
 */
import { appendAll } from '../arrays.js'
import type { Hunk } from '../domain.js'
import { allot, ClippedText, linesLeftOut } from './budget.js'

/** Below this, a piece is counted in a marker rather than shown as a stub. */
const MIN_SHARE = 400
/** Room for the markers of pieces left out, when some are. */
const MARKER_ROOM = 200

interface Piece {
  hunk: number
  /** The hunk's first piece, which starts with its `@@` header. */
  opens: boolean
  lines: string[]
  cost: number
}

/** The hunks' text whole. */
export const diffText = (hunks: readonly Hunk[]) => hunks.map((hunk) => hunk.text).join('\n')

/** Its length, without building it. */
export const diffSize = (hunks: readonly Hunk[]) => hunks.reduce((sum, hunk) => sum + hunk.text.length + 1, 0) - Math.min(1, hunks.length)

/** The hunks within `allowance` characters; whatever is cut or left out is marked where it was. */
export function showHunks(hunks: readonly Hunk[], allowance: number): string {
  if (diffSize(hunks) <= allowance) return diffText(hunks)
  const pieces = hunks.flatMap((hunk, index) => piecesOf(hunk, index))
  const shares = allot(
    pieces.map((piece) => piece.cost),
    Math.max(0, allowance - MARKER_ROOM),
    MIN_SHARE
  )
  return render(hunks, pieces, shares)
}

/** Each run of changed lines with the context lines before it; the header opens the first, trailing context closes the last. */
function piecesOf(hunk: Hunk, index: number): Piece[] {
  const [header, ...body] = hunk.text.split('\n')
  const pieces: string[][] = [[header]]
  let inChange = false
  for (const line of body) {
    const changed = line.startsWith('+') || line.startsWith('-')
    if (!changed && inChange && pieces[pieces.length - 1].length > 1) pieces.push([])
    pieces[pieces.length - 1].push(line)
    inChange = changed
  }
  // The context after the last run belongs to it, not to a piece of its own.
  const last = pieces[pieces.length - 1]
  if (pieces.length > 1 && !last.some((line) => line.startsWith('+') || line.startsWith('-'))) appendAll(pieces[pieces.length - 2], pieces.pop()!)
  return pieces.map((lines, at) => ({ hunk: index, opens: at === 0, lines, cost: lines.reduce((sum, line) => sum + line.length + 1, 0) }))
}

function render(hunks: readonly Hunk[], pieces: Piece[], shares: number[]): string {
  const out: string[] = []
  let leftOut = 0
  const flush = () => {
    if (leftOut > 0) out.push(linesLeftOut(leftOut))
    leftOut = 0
  }
  let headed = -1
  pieces.forEach((piece, i) => {
    if (shares[i] < Math.min(piece.cost, MIN_SHARE)) {
      leftOut += piece.lines.length
      return
    }
    flush()
    // A piece shown from a hunk whose opening piece was left out still says which hunk it is in.
    if (!piece.opens && headed !== piece.hunk) out.push(hunks[piece.hunk].header)
    headed = piece.hunk
    out.push(shares[i] >= piece.cost ? piece.lines.join('\n') : cut(piece, shares[i]))
  })
  flush()
  return out.join('\n')
}

function cut(piece: Piece, share: number): string {
  const text = new ClippedText(share, piece.lines)
  text.show(0, piece.lines.length - 1)
  return text.finish(piece.lines.length - 1)
}
