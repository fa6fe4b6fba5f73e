"""The first-game guides, one module of data per game (app.learn follows them):

  STEPS  a tuple of steps, each (words, start, want, why, then):
         words  what the step teaches and asks for, scrolled before the board shows (the 3x5
                font's letters: capitals, digits and - + ? ! : . / < >)
         start  a position in the game's notation to set up (position(), set_position());
                "" a new game; None: go on from the last step's position
         want   the action the player is to make, in the game's notation: its points blink
         why    what scrolls when the player makes another action (the position stays)
         then   the other side's actions that follow, in notation, separated by spaces
  END    the words once every step is done (OK then sets up a game, BACK the guides)

tests/both/test_learn.py checks every guide against the rules and drives each by its buttons.
"""
