"""The settings a maker may put on the flash, read once at boot (app.core forgets this
module then)."""
SETTINGS = ("brightness", "device_delay_ms")


def load(path="settings.json"):
    """Settings a maker may put on the flash: {"brightness": 0..255, "device_delay_ms": pause
    before the device moves}.  Missing or bad: defaults."""
    import json

    from shared_rules.record import check_json
    try:
        with open(path, "rb") as f:
            text = f.read(1024)  # a few settings: no flash can fill the heap from here
        check_json(text)  # UTF-8 and shallow, before json.loads
        settings = json.loads(text)
    except (OSError, ValueError):
        return {}
    if type(settings) is not dict:
        return {}
    # only the settings the app reads, each a number, or the default: a bad file never stops
    # the boot, and a setting nothing reads (a colour scheme, once) is not kept
    return dict((k, v) for k, v in settings.items() if k in SETTINGS and type(v) is int)
