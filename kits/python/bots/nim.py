"""Secret Nim: Bouton's nim-sum, and a double card spent when it wins at once.

The server's legal list is complete (crates/games/nim/RULES.md): every take of 1 up to
all the stones of a heap, and, while our own card (cards[our seat]) is an unspent
"double", every pair of takes from two different heaps. Whoever takes the last stone
wins. This bot:
- holding a double with exactly two heaps left: empties both, and wins;
- otherwise plays plain Nim (Bouton, 1901): when the XOR of the heaps (the nim-sum) is
  not zero, takes from a heap h where heaps[h] ^ sum < heaps[h], leaving heaps[h] ^ sum
  stones and a nim-sum of zero (with one heap left, it takes the whole heap and wins);
- with a nim-sum of zero (lost in plain two-player Nim, if the others play well) takes
  1 stone from the largest heap and waits for a mistake.
It sends only a move the server lists: should its view be out of date, the server's
first legal action instead.
"""


def decide(view, legal, prompt):
    heaps = view["heaps"]
    left = [h for h, stones in enumerate(heaps) if stones > 0]
    if view["cards"][prompt["seat"]] == "double" and len(left) == 2:
        action = {"double": [{"heap": h, "count": heaps[h]} for h in left]}
    else:
        action = {"take": nim_sum_take(heaps)}
    return action if action in legal else legal[0]


def nim_sum_take(heaps):
    """Bouton's take: leave a nim-sum of zero when we can, else 1 from the largest heap."""
    total = 0
    for stones in heaps:
        total ^= stones
    if total:
        for h, stones in enumerate(heaps):
            if (stones ^ total) < stones:
                return {"heap": h, "count": stones - (stones ^ total)}
    largest = max(range(len(heaps)), key=lambda h: heaps[h])  # the first of the largest
    return {"heap": largest, "count": 1}
