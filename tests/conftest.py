import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "both"))  # the dual-runtime cases import helpers
sys.path.insert(0, os.path.join(ROOT, "firmware"))  # app, hal, views as on the device
sys.path.insert(0, ROOT)
