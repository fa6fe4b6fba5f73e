"""README's "Adding a game" holds to the tree: the files each game has, and the only lines
that name every game (so that a fifth game is those files and those lines, nothing else)."""
import os
import re
import subprocess

from runtimes import ROOT
from shared_rules import GAMES

CODE = (".py", ".js", ".html", ".json", ".toml", "Makefile")


def checklist():
    """The two tables of README's "Adding a game": file patterns with <game>, and files."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text.split("### Adding a game\n", 1)[1].split("\n#", 1)[0]
    tables = re.findall(r"(?:^\|.*\|\n)+", section, re.M)
    assert len(tables) == 2, section
    return [re.findall(r"^\| `([^`]+)` \|", t, re.M) for t in tables]


def names_every_game(path):
    """Whether a few lines of the file hold every game id as a quoted string: a list of the
    games, or a table with an entry for each."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    span = len(GAMES) + 2
    for i in range(len(lines)):
        window = "\n".join(lines[i:i + span])
        if all(re.search(r"[\"']%s[\"']" % g, window) for g in GAMES):
            return True
    return False


def test_every_game_has_the_files_of_the_checklist():
    per_game, _ = checklist()
    assert len(per_game) >= 6 and all("<game>" in p for p in per_game), per_game
    for game in GAMES:
        for pattern in per_game:
            path = pattern.replace("<game>", game)
            assert os.path.exists(os.path.join(ROOT, path)), path


def test_only_the_lines_of_the_checklist_list_the_games():
    per_game, lines = checklist()
    own = {p.replace("<game>", g) for p in per_game for g in GAMES}
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    listing = [f for f in files if f.endswith(CODE) and f not in own
               and os.path.isfile(os.path.join(ROOT, f))
               and names_every_game(os.path.join(ROOT, f))]
    assert "shared_rules/__init__.py" in listing  # the scan finds GAMES itself
    stray = sorted(set(listing) - set(lines))
    assert not stray, "these list the games; use shared_rules.GAMES, or add them to README's " \
        "\"Adding a game\": %s" % stray
