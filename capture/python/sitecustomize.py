"""The capture's Python side (src/launch/capture.ts), on PYTHONPATH during a capture: in a process about to
run pytest (`python -m pytest`, the `pytest` script), append one JSON line saying how it was launched to
$RTG_CAPTURE_FILE and exit 0 before any test is collected. Every other Python process gets a start line and
an exit line, as the Node preload does. Then the sitecustomize this one shadows, if any, runs as usual."""
import os
import sys


def _rtg_capture(path):
    import json
    import time

    def append(record):
        try:
            with open(path, 'a', encoding='utf-8') as out:
                out.write(json.dumps(record) + '\n')
        except OSError:
            pass  # The capture must never break the repository's own command.

    def command_line(pid):
        try:
            with open('/proc/%d/cmdline' % pid, 'rb') as f:
                # A process that set its title (npm) pads its command line with NULs.
                return [part.decode('utf-8', 'replace') for part in f.read().rstrip(b'\0').split(b'\0')]
        except OSError:
            return None

    def parent_of(pid):
        try:
            with open('/proc/%d/stat' % pid) as f:
                stat = f.read()
            return int(stat[stat.rindex(')') + 2:].split(' ')[1])
        except (OSError, ValueError, IndexError):
            return 0

    def ancestors():
        # Outermost first, up to the capture's root shell; empty when this is the root or the walk never meets it.
        root = int(os.environ.get('RTG_CAPTURE_ROOT') or 0)
        chain, pid = [], os.getppid()
        if not root or os.getpid() == root:
            return []
        for _ in range(32):
            if pid <= 0:  # in the sandbox the root shell is pid 1
                return []
            argv = command_line(pid)
            if argv is None:
                return []
            chain.insert(0, {'pid': pid, 'argv': argv})
            if pid == root:
                return chain
            pid = parent_of(pid)
        return []

    # sys.orig_argv (3.10+) has the interpreter's own options and `-m pytest`; sys.argv[0] is '-m' here.
    orig = list(getattr(sys, 'orig_argv', []) or [])
    script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ''
    common = {'pid': os.getpid(), 'at': int(time.time() * 1000), 'argv0': sys.executable, 'cwd': os.getcwd(), 'ancestors': ancestors()}
    if '-m' in orig[1:] and orig[orig.index('-m') + 1:orig.index('-m') + 2] in (['pytest'], ['py.test']):
        at = orig.index('-m')
        append(dict(common, kind='runner', runner='pytest', main=None, execArgv=orig[1:at + 2], argv=orig[at + 2:], env=dict(os.environ)))
        os._exit(0)
    if script in ('pytest', 'py.test', 'pytest-3'):
        append(dict(common, kind='runner', runner='pytest', main=os.path.realpath(sys.argv[0]), execArgv=[], argv=sys.argv[1:], env=dict(os.environ)))
        os._exit(0)
    append(dict(common, kind='process', main=None, execArgv=[], argv=orig[1:] or sys.argv))
    import atexit
    atexit.register(lambda: append({'kind': 'exit', 'pid': os.getpid(), 'at': int(time.time() * 1000)}))


def _rtg_chain_shadowed():
    """Runs the sitecustomize later on sys.path (Debian ships one) that this file hides."""
    import importlib
    here = os.path.dirname(os.path.abspath(__file__))
    saved = list(sys.path)
    own = sys.modules.pop('sitecustomize', None)
    try:
        sys.path[:] = [entry for entry in saved if os.path.abspath(entry or '.') != here]
        importlib.import_module('sitecustomize')
    except Exception:
        pass
    finally:
        sys.path[:] = saved
        if own is not None:
            sys.modules['sitecustomize'] = own


if os.environ.get('RTG_CAPTURE_FILE'):
    _rtg_capture(os.environ['RTG_CAPTURE_FILE'])
_rtg_chain_shadowed()
