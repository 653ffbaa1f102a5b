// Secret Nim: Bouton's nim-sum, and a double card spent when it wins at once.
//
// The server's legal list is complete (crates/games/nim/RULES.md): every take of 1 up to
// all the stones of a heap, and, while our own card (cards[our seat]) is an unspent
// "double", every pair of takes from two different heaps. Whoever takes the last stone
// wins. This bot:
// - holding a double with exactly two heaps left: empties both, and wins;
// - otherwise plays plain Nim (Bouton, 1901): when the XOR of the heaps (the nim-sum) is
//   not zero, takes from a heap h where heaps[h] ^ sum < heaps[h], leaving heaps[h] ^ sum
//   stones and a nim-sum of zero (with one heap left, it takes the whole heap and wins);
// - with a nim-sum of zero (lost in plain two-player Nim, if the others play well) takes
//   1 stone from the largest heap and waits for a mistake.
// It sends only a move the server lists: should its view be out of date, the server's
// first legal action instead.
'use strict';

function decide(view, legal, prompt) {
  const heaps = view.heaps;
  const left = heaps.map((stones, h) => h).filter((h) => heaps[h] > 0);
  const same = (a, b) => a != null && b != null && a.heap === b.heap && a.count === b.count;
  if (view.cards[prompt.seat] === 'double' && left.length === 2) {
    const takes = left.map((h) => ({ heap: h, count: heaps[h] }));
    const listed = legal.find((a) => a && Array.isArray(a.double) && a.double.length === 2 &&
      same(a.double[0], takes[0]) && same(a.double[1], takes[1]));
    if (listed) return listed;
  }
  const take = nimSumTake(heaps);
  return legal.find((a) => a && same(a.take, take)) || legal[0];
}

// Bouton's take: leave a nim-sum of zero when we can, else 1 from the largest heap.
function nimSumTake(heaps) {
  const sum = heaps.reduce((acc, stones) => acc ^ stones, 0);
  if (sum !== 0) {
    const h = heaps.findIndex((stones) => (stones ^ sum) < stones);
    if (h >= 0) return { heap: h, count: heaps[h] - (heaps[h] ^ sum) };
  }
  let largest = 0; // the first of the largest
  heaps.forEach((stones, h) => { if (stones > heaps[largest]) largest = h; });
  return { heap: largest, count: 1 };
}

module.exports = { decide, nimSumTake };
