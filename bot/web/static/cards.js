// The bot's card face in the browser, shared by the deal viewer (viewer.js) and the live
// table (table.js): rank, the suit under it, one big pip, as the pictures draw it
// (bot/render/cards.py); viewer.css styles it (.card, .card-rank, .card-corner, .card-pip).
// Load it before either script. Plain modern JavaScript, no build step.
"use strict";

window.BonkenCards = (() => {
  const SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
  const RANK_LETTERS = "23456789TJQKA";

  // The rank key of a card code ("QS" -> "12"): the words' "ranks" are keyed by it.
  function rankKey(code) {
    return String(RANK_LETTERS.indexOf(code.slice(0, -1)) + 2);
  }

  // A card face for `code` ("QS"), its rank written `rankText` ("Q", or "V" in Dutch).
  function face(code, rankText) {
    const suit = code.slice(-1);
    const card = document.createElement("span");
    card.className = `card dv-suit-${suit}`;
    card.dataset.card = code;
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", rankText + SUITS[suit]);
    for (const [part, words] of [["card-rank", rankText], ["card-corner", SUITS[suit]], ["card-pip", SUITS[suit]]]) {
      const span = document.createElement("span");
      span.className = part;
      span.textContent = words;
      card.append(span);
    }
    return card;
  }

  return { SUITS, RANK_LETTERS, rankKey, face };
})();
