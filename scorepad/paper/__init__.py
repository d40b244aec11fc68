"""The printed paper: the house-rule sheet, the blank score pad and a game's results, as PDF
bytes built from rules values. No web framework; :mod:`scorepad.web.paper` serves them."""
