"""Rhombus, a first game (guides/__init__.py: the format).  The secret bid, the smaller bid
placing first, starting a Line on the edge, the Current Line filled in order, and at the end
towers and the sets that score them.  The guide bids for White too (each bid step's `then`)."""
# Near the end: empty only h8 (a Line of one cell) and the Line a4 b3 c2 d1; g8 and b4 are
# White, so a black stone on h8 or a4 is a tower of 1.  Black's towers are then 1 2 3 4 and 6
# high with more 2s than 1s: each of the two puts one more 2 into a set.  Black wins 30 to 29;
# with either cell White's instead, White wins.
LATE = ("BBB.WWBB"  # rank 1: a1..h1
        "WW.WWWWW"
        "W.BBWWBW"
        ".WWWBBBB"
        "WWWWBBBW"
        "BBWWWWWW"
        "BBBBBBWW"
        "BBBBWWW."  # rank 8: a8..h8
        " -:- 0:0 0")
STEPS = (
    ("YOU ARE BLACK. BID 1 TO 4 STONES IN SECRET. FOR 2 PRESS RIGHT THEN OK",
     "", "bid2", "BID 2 HERE. THE ARROW IS THE BID: UP 1 RIGHT 2 DOWN 3 LEFT 4. THEN OK",
     "bid4"),
    ("WHITE BID 4: SMALLER BIDS PLACE FIRST. YOU PLACE 2: OK ON THE BLINK",
     None, "a1", "START ON THE BLINKING CORNER: A NEW LINE BEGINS ON A FREE EDGE CELL", ""),
    ("THAT CORNER FILLED A LINE. START A NEW ONE: ARROWS ALONG THE EDGE. OK",
     None, "a5", "A LINE IS A ROW ACROSS THE SCREEN: START ONE AT THE BLINKING EDGE CELL",
     "b4 c3 d2 e1"),
    ("WHITE HAD TO GO ON ALONG YOUR LINE: THE CURRENT LINE. BID 1: UP THEN OK",
     None, "bid1", "BID 1 HERE: UP THEN OK. THE SMALLER BID PLACES FIRST", "bid3"),
    ("YOU BID LESS: YOU GO FIRST. THE LINE IS FULL: START ONE ON A FREE EDGE",
     None, "a8", "ANY FREE EDGE CELL WOULD DO IN A GAME: HERE TAKE THE BLINKING ONE",
     "b7 c6 d5"),
    ("LATER: THE GAME ENDS WHEN THE BOARD IS FULL. BID 2: RIGHT THEN OK",
     LATE, "bid2", "BID 2 HERE: RIGHT THEN OK. THE SMALLER BID CHOOSES ITS CELLS FIRST", "bid3"),
    ("A TOWER IS A RUN: YOURS UP TO THE RIGHT. WHITE UP LEFT. MAKE ONE OF 1",
     None, "h8", "THE TOP CORNER NEXT TO WHITE IS A TOWER OF 1 ON ITS OWN: PLACE THERE", ""),
    ("SETS SCORE: 1+2+3+4 IS 16. 1+2+3 IS 9. 1+2 IS 4. 1 IS 1. MAKE ONE MORE 1",
     None, "a4", "EVERY SET NEEDS A 1: THE BLINKING CELL BY WHITE GETS A 2 INTO A SET",
     "b3 c2 d1"),
)
END = "TOWERS IN NO SET COST THEIR HEIGHT. MORE POINTS WIN: WHITE WINS A TIE. OK: PLAY A GAME"
