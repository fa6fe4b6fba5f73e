"""The kinds of value the command-line options take, each an argparse type that checks range
and kind before anything uses the value: a wrong one is one line (`stonegrid X: error:
argument --Y: ...`) and exit status 2, never a traceback."""
import argparse
import os


def tcp_port(text):
    """A TCP port: 0 (any free port) .. 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 (any free port) to "
                                         "65535, not %r" % text)
    return port


def host_port(text):
    """--join's HOST:N, N a TCP port from 1 to 65535."""
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError("HOST:N, N a port from 1 to 65535 (as the serving "
                                         "side prints it), not %r" % text)
    return host.strip("[]"), int(port)


def folder(text):
    """A folder that is there, or that can be made: not a file, a device or a pipe."""
    path = os.path.expanduser(text)
    if not text or (os.path.exists(path) and not os.path.isdir(path)):
        raise argparse.ArgumentTypeError("%r is not a folder" % text)
    return text

