"""Finding and opening boards: USB serial ports, the last one used, and mpremote's transport."""
import json
import os
import stat

RP2_MICROPYTHON = (0x2E8A, 0x0005)  # Raspberry Pi's USB id for MicroPython on rp2 boards


class DeviceError(RuntimeError):
    """No board, or a board that does not answer as expected."""


def state_file():
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "stonegrid", "device.json")


def remembered():
    try:
        with open(state_file()) as f:
            return json.load(f).get("port")
    except (OSError, ValueError):
        return None


def remember(port):
    path = state_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"port": port}, f)


def ports():
    """[(device, "VID:PID", serial number, description, is_micropython)] of USB serial ports."""
    from serial.tools import list_ports
    out = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        if p.vid is None:
            continue
        out.append((p.device, "%04X:%04X" % (p.vid, p.pid), p.serial_number or "",
                    p.description or "", (p.vid, p.pid) == RP2_MICROPYTHON))
    return out


WAIT_HINT = " (--wait waits for a board not plugged in yet)"


def check_port(port, hint=""):
    """DeviceError, one line naming the port and why it cannot be opened now (missing, busy,
    not allowed, not a serial port), unless it can; `hint` ends the missing port's line.
    The port is opened and closed at once, locked, as a second user of it would be."""
    import errno
    import serial
    if not os.path.exists(port):
        raise DeviceError("cannot open %s: no such port; is the board plugged in, is the name "
                          "right?%s" % (port, hint))
    if not stat.S_ISCHR(os.stat(port).st_mode):
        raise DeviceError("cannot open %s: not a serial port (a %s)" % (
            port, "folder" if os.path.isdir(port) else "file"))
    try:
        serial.Serial(port, 115200, timeout=0, exclusive=True).close()
    except (serial.SerialException, OSError) as e:
        code = e.errno if isinstance(e, OSError) else (e.args[0] if e.args and isinstance(
            e.args[0], int) else None)
        busy = "busy: another program has it open (mpremote, a serial monitor, another " \
               "stonegrid?)"
        missing = "no such port; is the board plugged in?" + hint
        why = {errno.EBUSY: busy, errno.EAGAIN: busy,
               errno.EACCES: "permission denied: add yourself to the dialout group (`sudo "
                             "usermod -aG dialout $USER`, then log in again)",
               errno.ENOTTY: "not a serial port",
               errno.ENOENT: missing, errno.ENXIO: missing}.get(code)
        if why is None and "lock" in str(e).lower():
            why = busy
        raise DeviceError("cannot open %s: %s" % (port, why or str(e)[:120]))


def choose(port=None, check=True, hint=""):
    """The port to use: --port, else the one remembered if still there, else the only
    MicroPython board, checked that it opens (check_port) unless `check` is False.
    Remembers the choice."""
    if port:
        if check:
            check_port(port, hint)
        remember(port)
        return port
    found = ports()
    names = [p[0] for p in found]
    last = remembered()
    if last and (last in names or os.path.exists(last)):
        return last
    boards = [p[0] for p in found if p[4]]
    if len(boards) == 1:
        remember(boards[0])
        return boards[0]
    if not boards:
        raise DeviceError("no MicroPython board found (USB id 2E8A:0005); plug one in, or give "
                          "--port (e.g. the serial: path that `stonegrid sim --headless` prints)")
    raise DeviceError("several boards found (%s); choose one with --port" % ", ".join(boards))


def connect(port):
    """mpremote's serial transport on a port, in the raw REPL (the app interrupted)."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport
    try:
        t = SerialTransport(port, baudrate=115200)
    except Exception as e:  # mpremote raises a bare TransportError or serial exceptions
        raise DeviceError("cannot open %s: %s" % (port, e))
    try:
        t.enter_raw_repl(soft_reset=True)
    except TransportError as e:
        t.close()
        raise DeviceError("%s does not answer like a MicroPython board (%s); is the app "
                          "frozen, or another program using the port?" % (port, e))
    return t


def restart(t):
    """Leave the raw REPL and soft-reset, so that main.py starts the app again."""
    t.exit_raw_repl()
    t.serial.write(b"\x04")
    t.serial.flush()
