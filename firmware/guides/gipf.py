"""GIPF (basic), a first game (guides/__init__.py: the format).  Pushing a piece in from a dot,
the pieces it shoves along, a row of four with the pieces that extend it (yours back to your
reserve, the other side's captured), a dot's two ways in, and the reserve that decides the
game: basic GIPF has no GIPF pieces."""
STEPS = (
    ("YOU ARE WHITE. ARROWS TO THE BLINKING DOT: OK PICKS IT. OK PUSHES IN",
     "", "e1-e2", "A NEW PIECE COMES IN FROM A DOT ON THE RIM: THE BLINKING ONE", "e9-e8"),
    ("THE PIECE IN ITS WAY MOVED ONE STEP ON. BLACK DID THE SAME. PUSH AGAIN",
     None, "e1-e2", "PUSH UP COLUMN E AGAIN: BOTH YOUR PIECES THERE MOVE UP ONE", "e9-e8"),
    ("FOUR ALIKE IN A ROW LEAVE WITH ALL PIECES IN LINE UP TO A GAP. MAKE FOUR",
     None, "e1-e2", "ONE MORE UP COLUMN E MAKES FOUR WHITE: THE 3 BLACK ABOVE GO TOO",
     "h1-h2"),
    ("YOUR 4 WENT BACK TO YOUR RESERVE: THE BOTTOM ROW. BLACK LOST 3 FOR GOOD",
     None, "d1-d2", "EACH PUSH USES ONE PIECE OF YOUR RESERVE: SPEND IT AT THE BLINKING DOT",
     "e9-e8"),
    ("MOST DOTS HAVE TWO WAYS IN: AFTER OK AN ARROW PICKS THE WAY. OK PUSHES",
     None, "f1-f2", "FROM THE BLINKING DOT GO STRAIGHT UP: OK THEN UP THEN OK", ""),
    ("LATER: THE RIGHT COLUMN SHOWS BLACK HAS NO RESERVE LEFT. PUSH TO WIN",
     "B..B/W.BWW/...BB./WW...W./...B../W.BWB/.... 4 0 0 -", "e1-e2",
     "PUSH AT THE BLINKING DOT: THEN BLACK MUST PUSH WITH NONE LEFT AND LOSES", ""),
)
END = "NO GIPF PIECES IN BASIC GIPF. WHO MUST PUSH WITH NO RESERVE LOSES. OK: PLAY A GAME"
