/** report.md's line saying where the suite went, and the folded commands that apply a patch. */
import { DELIVERY_MARKER } from '../../src/deliver/delivery.js'
import { applyCommands, deliveryLine } from '../../src/report/delivery-line.js'

const files = ['test/regression/issue-7.test.js']

test('each mode says where the suite went', () => {
  expect(deliveryLine({ mode: 'commit', files, url: 'https://github.com/o/r/commit/abc', reason: null })).toBe("📬 **Delivered** as a [commit](https://github.com/o/r/commit/abc) on the pull request's branch: `test/regression/issue-7.test.js`.")
  expect(deliveryLine({ mode: 'pull-request', files, url: 'https://github.com/o/r/pull/8', reason: null })).toBe('📬 **Delivered** as a [pull request](https://github.com/o/r/pull/8) into this one: `test/regression/issue-7.test.js`.')
  expect(deliveryLine({ mode: 'patch', files, url: null, reason: 'the pull request comes from a fork' })).toBe(
    '📬 **Delivered as a patch**: `suite.patch` in the output folder (and the artifact) adds `test/regression/issue-7.test.js`; `git apply suite.patch` at the head. Not pushed: the pull request comes from a fork.'
  )
  expect(deliveryLine({ mode: 'none', files: [], url: null, reason: 'verify mode' })).toBe('📭 Not delivered: verify mode.')
})

test('a URL that is not a plain link, and untrusted reasons, stay text', () => {
  expect(deliveryLine({ mode: 'commit', files, url: 'javascript:alert(1)', reason: null })).toContain('a commit `javascript:alert(1)` on')
  expect(deliveryLine({ mode: 'none', files: [], url: null, reason: '<img src=x> @team' })).toBe('📭 Not delivered: &lt;img src=x&gt; @\u200Bteam.')
})

test('a patch comes with the three commands, folded, without untrusted text in them', () => {
  const commands = applyCommands({ mode: 'patch', files: ['t/$(rm -rf ~).test.js'], url: null, reason: null }, { pullRequest: 12, runId: '99', artifactName: 'regression-testgen' })
  expect(commands).toBe(
    [
      '<details><summary>Apply the suite to this pull request</summary>',
      '',
      '```sh',
      'gh pr checkout 12',
      "gh run download 99 --name 'regression-testgen' --dir /tmp/regression-testgen && git apply --index /tmp/regression-testgen/suite.patch",
      `git commit -m "test: regression tests from regression-testgen" -m "${DELIVERY_MARKER}" && git push`,
      '```',
      '',
      '</details>'
    ].join('\n')
  )
  expect(applyCommands({ mode: 'commit', files, url: 'https://x', reason: null }, { pullRequest: 12, runId: '99', artifactName: 'a' })).toBeNull()
})
