"""`stonegrid flash`: put the firmware on a board, sending only what changed.

On the board the code lives in a slot, /fw/a or /fw/b, and /fw/current names the one that
boots (main.py reads it).  A flash stages the new build in the other slot - files that did not
change are copied on the board, the rest sent - verifies every hash there, and only then
switches /fw/current (written to a temporary file and renamed over: atomic).  Stopped at any
point, the board still boots the old firmware or, once switched, the new: never a mix."""
import os

from stonegrid import build
from stonegrid.device import DeviceError, connect, restart
from stonegrid.progress import progress

SLOTS = ("a", "b")
OLD_LAYOUT = build.CODE_DIRS + ("shared_rules",)  # code in the root (virtual board sync)

_INFO = """
import sys, os
try:
    _c = open('fw/current').read().strip()
except OSError:
    _c = ''
print(repr((getattr(sys.implementation, '_mpy', 0), sys.platform, _c)))
"""

_TREE = """
import os
def _tree(d, rel, out):
    try:
        entries = list(os.ilistdir(d))
    except OSError:
        return out
    for e in entries:
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            _tree(p, rel + e[0] + '/', out)
        out.append((p, rel + e[0], e[1] == 0x4000))  # a folder after what it holds
    return out
def _mk(p):
    parts = p.split('/')[:-1]
    for i in range(1, len(parts) + 1):
        try:
            os.mkdir('/'.join(parts[:i]))
        except OSError:
            pass
"""

_HASH = _TREE + """
import hashlib, binascii
def _h(p):
    h = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            h.update(b)
    return binascii.hexlify(h.digest()).decode()
_out = {}
for _p in %r:
    try:
        _out[_p] = _h(_p)
    except OSError:
        pass
if %r:
    for _p, _rel, _dir in _tree(%r, '', []):
        if not _dir:
            _out[_rel] = _h(_p)
print(repr(_out))
"""

_RMTREE = _TREE + """
for _d in %r:
    for _p, _rel, _dir in _tree(_d, '', []):
        (os.rmdir if _dir else os.remove)(_p)
    try:
        os.rmdir(_d)
    except OSError:
        pass
"""

_MKDIRS = _TREE + """
for _p in %r:
    _mk(_p)
"""

_COPY = _TREE + """
for _src, _dst in %r:
    _mk(_dst)
    with open(_src, 'rb') as fi, open(_dst, 'wb') as fo:
        while True:
            b = fi.read(512)
            if not b:
                break
            fo.write(b)
"""

_SWITCH = """
import os
with open('fw/current.tmp', 'w') as f:
    f.write(%r)
os.rename('fw/current.tmp', 'fw/current')
"""

_REPLACE = """
import os
os.rename(%r, %r)
"""


def _eval(t, code):
    import ast
    out = t.exec(code).decode().strip()
    return ast.literal_eval(out.splitlines()[-1]) if out else None


class Plan:
    def __init__(self, files, current, hashes):
        self.files = files  # {flash path: bytes}: the slot's files, and the root's (main.py)
        self.current = current
        self.slot = SLOTS[1] if current == SLOTS[0] else SLOTS[0]
        self.root = dict((p, d) for p, d in files.items() if "/" not in p)
        code = dict((p, d) for p, d in files.items() if "/" in p)
        self.unchanged = sorted(p for p, d in code.items()
                                if hashes.get("slot:" + p) == build.digest(d))
        self.send = sorted(p for p in code if p not in self.unchanged)
        self.root_send = sorted(p for p, d in self.root.items()
                                if hashes.get(p) != build.digest(d))
        self.removed = sorted(p[5:] for p in hashes if p.startswith("slot:")
                              and p[5:] not in code)

    def nothing_to_do(self):
        return not self.send and not self.root_send and not self.removed and self.current

    def bytes_to_send(self):
        return sum(len(self.files[p]) for p in self.send + self.root_send)


def flash(port, profile=None, dry_run=False, out=print):
    """Flash the firmware; returns the Plan.  profile: a board profile file for /board.json."""
    t = connect(port)
    try:
        sys_mpy, platform, current = _eval(t, _INFO)
        if current not in SLOTS:
            current = ""
        mine, theirs = build.mpy_cross_format(), build.device_format(sys_mpy)
        compiled = mine is not None and mine == theirs
        if not compiled:
            out("note: the board's .mpy format is %s, mpy-cross writes %s: sending source"
                % (theirs, mine))
        files = build.build(compiled=compiled, profile=profile)
        root_files = sorted(p for p in files if "/" not in p)
        hashes = _eval(t, _HASH % (root_files, bool(current), "fw/" + current))
        hashes = dict((("slot:" + k) if k not in root_files else k, v) for k, v in hashes.items())
        plan = Plan(files, current, hashes)
        if not dry_run and not plan.nothing_to_do():
            _stage(t, plan)
        restart(t)  # entering the raw REPL stopped the app: start it again in any case
        return plan
    finally:
        t.close()


def _stage(t, plan):
    slot = "fw/" + plan.slot
    total = plan.bytes_to_send()
    advance, finish = progress(total)
    t.exec(_RMTREE % ([slot],))
    t.exec(_COPY % ([("fw/%s/%s" % (plan.current, p), "%s/%s" % (slot, p))
                     for p in plan.unchanged],))
    t.exec(_MKDIRS % (["%s/%s" % (slot, p) for p in plan.send],))

    def send(path, data):
        sent = [0]

        def progress(done, size):
            advance(done - sent[0])
            sent[0] = done
        t.fs_writefile(path, data, progress_callback=progress)

    for p in plan.send:
        send("%s/%s" % (slot, p), plan.files[p])
    code = dict((p, d) for p, d in plan.files.items() if "/" in p)
    got = _eval(t, _HASH % ([], True, slot))
    want = dict((p, build.digest(d)) for p, d in code.items())
    if got != want:
        bad = sorted(p for p in set(got) | set(want) if got.get(p) != want.get(p))
        raise DeviceError("verification failed for %s; the board still runs its old firmware"
                          % ", ".join(bad[:5]))
    t.exec(_SWITCH % plan.slot)
    for p in plan.root_send:  # main.py, board.json: written aside, then renamed over
        send(p + ".tmp", plan.files[p])
        t.exec(_REPLACE % (p + ".tmp", p))
    t.exec(_RMTREE % (list(OLD_LAYOUT),))
    finish()


def summary(plan, dry_run=False):
    sent = plan.send + plan.root_send
    verb = "would send" if dry_run else "sent"
    return "flash: %s %d files (%d bytes), %d unchanged, %d removed%s" % (
        verb, len(sent), plan.bytes_to_send(), len(plan.unchanged), len(plan.removed),
        "" if dry_run or not sent else "; verified, slot %s, app restarted" % plan.slot)


def find_uf2_drive(roots=("/media", "/run/media", "/Volumes", "/mnt")):
    """The mounted BOOTSEL drive of an RP2040/RP2350 (RPI-RP2 / RP2350): it holds
    INFO_UF2.TXT.  None when there is none."""
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            if "INFO_UF2.TXT" in filenames:
                return dirpath
            if dirpath.count(os.sep) - root.count(os.sep) >= 2:
                dirnames[:] = []  # the drive is at most two levels down (/media/USER/RPI-RP2)
    return None


def flash_uf2(uf2, port=None, drive=None, timeout=30.0, out=print):
    """Put MicroPython itself on a board: ask a running board into its bootloader (the same as
    holding BOOTSEL while plugging it in), wait for its drive, copy the .uf2 file there."""
    import shutil
    import time
    with open(uf2, "rb") as f:
        if f.read(4) != b"UF2\n":
            raise ValueError("%s is not a UF2 file" % uf2)
    if drive is None and port:
        t = connect(port)
        try:
            t.exec_raw_no_follow("import machine; machine.bootloader()")
        finally:
            t.close()
    deadline = time.monotonic() + timeout
    while drive is None or not os.path.isfile(os.path.join(drive, "INFO_UF2.TXT")):
        if time.monotonic() > deadline:
            raise DeviceError("no BOOTSEL drive (with INFO_UF2.TXT) appeared; hold BOOTSEL "
                              "while plugging the board in, mount the drive, give --drive")
        drive = drive or find_uf2_drive()
        time.sleep(0.5)
    target = os.path.join(drive, os.path.basename(uf2))
    shutil.copyfile(uf2, target)
    out("flash: copied %s to %s; the board restarts with the new MicroPython" % (uf2, drive))
    return target
