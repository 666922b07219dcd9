// The live table: a table in play, drawn in the browser and played there.
//
// Contract (kept stable; bot/web/live/__init__.py says the same):
//   BonkenTable.mount(element, {token, socketUrl, language}) -> {close()}
// draws the table in `element` for whoever `token` names (a seat token from
// bot.web.live.tokens.seat_token, or a spectator's) and plays it over the WebSocket at
// `socketUrl` (a path such as "/live/socket", or a ws:// or wss:// address), in
// `language` ("en" or "nl"). Load cards.js first; style it with viewer.css and table.css.
// An element carrying data-bonken-table (with data-token, data-socket, data-language) is
// mounted by itself when the page loads.
//
// The page draws what the bot sends and nothing else: each "state" frame is the whole
// table as this person may see it (bot/web/live/state.py), so a page that reconnects is
// right again with its first frame. Every move is sent as the engine's action code with
// the turn it was shown; the bot checks it as it checks a Discord button, and a refusal
// comes back in the bot's own words. Plain modern JavaScript, no build step, no inline
// script (the pages' CSP forbids it).
"use strict";

window.BonkenTable = (() => {
  const FORMAT = "bonken-live/1";
  const PLACES = ["bottom", "left", "top", "right"]; // a seat's place, counted from the viewer's
  const FINAL = new Set([4001, 4003, 4004, 4008]); // closes a reconnect cannot mend
  const HOLD_TRICK_MS = 1100; // a finished trick stays in the middle this long

  function node(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  }

  function signed(value) {
    return value === 0 ? "0" : (value > 0 ? "+" : "\u2212") + Math.abs(value);
  }

  function socketAddress(socketUrl) {
    if (/^wss?:\/\//.test(socketUrl)) return socketUrl;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${socketUrl}`;
  }

  class LiveTable {
    constructor(root, options) {
      this.root = root;
      this.token = options.token;
      this.address = socketAddress(options.socketUrl || "/live/socket");
      this.language = options.language || "en";
      this.words = null;
      this.state = null;
      this.shownLast = null; // the last trick drawn when it was taken
      this.holdUntil = 0;
      this.holdTimer = 0;
      this.chosen = new Set(); // the doubling turn's targets, before Confirm
      this.trumpsOpen = false;
      this.showLast = false;
      this.focus = -1;
      this.retry = 0;
      this.closed = false;
      this.build();
      this.tick = setInterval(() => this.drawClock(), 250);
      this.connect();
    }

    // -- the connection ---------------------------------------------------------------

    connect() {
      if (this.closed) return;
      const socket = new WebSocket(this.address);
      this.socket = socket;
      socket.addEventListener("open", () => {
        socket.send(JSON.stringify({ type: "hello", token: this.token, language: this.language }));
      });
      socket.addEventListener("message", (event) => this.receive(event.data));
      socket.addEventListener("close", (event) => {
        if (this.socket !== socket || this.closed) return;
        this.root.dataset.connected = "0";
        if (FINAL.has(event.code) || event.code === 4000) {
          this.closed = true;
          return;
        }
        this.say(this.words ? this.words.reconnecting : "\u2026", "lt-warn");
        const wait = Math.min(5000, 300 * 2 ** this.retry++);
        this.reconnect = setTimeout(() => this.connect(), wait);
      });
    }

    receive(text) {
      let frame;
      try {
        frame = JSON.parse(text);
      } catch (error) {
        return;
      }
      if (frame.type === "words") {
        this.words = frame.words;
        this.drawWords();
      } else if (frame.type === "state") {
        if (!frame.state || frame.state.format !== FORMAT) return;
        this.retry = 0;
        this.root.dataset.connected = "1";
        this.update(frame.state);
      } else if (frame.type === "refused" || frame.type === "error") {
        this.say(frame.words, "lt-refused");
      } else if (frame.type === "closed") {
        this.closed = true;
        this.say(frame.words, "lt-info");
        this.root.classList.add("lt-over");
      }
    }

    send(action) {
      if (!this.state || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
      this.socket.send(JSON.stringify({ type: "act", turn: this.state.turn, action }));
    }

    close() {
      this.closed = true;
      clearInterval(this.tick);
      clearTimeout(this.reconnect);
      clearTimeout(this.holdTimer);
      if (this.socket) this.socket.close(1000);
    }

    // -- the parts, made once ---------------------------------------------------------

    build() {
      const frame = node("div", "lt");
      this.root.replaceChildren(frame);
      this.root.classList.add("deal-viewer", "lt-root");
      this.root.setAttribute("role", "region");
      this.head = node("div", "lt-head");
      this.heading = node("span", "lt-heading", "\u2026");
      this.contract = node("span", "lt-contract");
      this.head.append(this.heading, this.contract);

      this.table = node("div", "lt-table");
      this.seats = PLACES.map((place) => {
        const box = node("div", `lt-seat lt-${place}`);
        const plate = node("div", "lt-plate");
        const name = node("span", "lt-name");
        const chips = node("span", "lt-chips");
        const stats = node("span", "lt-stats");
        plate.append(name, chips, stats);
        const backs = node("div", "lt-backs");
        box.append(plate, backs);
        this.table.append(box);
        return { box, plate, name, chips, stats, backs };
      });
      this.centre = node("div", "lt-centre");
      this.trick = node("div", "lt-trick");
      this.rows = node("div", "lt-rows");
      this.centre.append(this.trick, this.rows);
      this.table.append(this.centre);

      this.status = node("div", "lt-status");
      this.status.setAttribute("aria-live", "polite");
      this.turnLine = node("span", "lt-turn");
      this.clock = node("span", "lt-clock");
      this.status.append(this.turnLine, this.clock);
      this.message = node("div", "lt-message");
      this.message.setAttribute("role", "status");
      this.actions = node("div", "lt-actions");
      this.hand = node("div", "lt-hand");
      this.hand.setAttribute("role", "listbox");
      this.hand.addEventListener("keydown", (event) => this.keyed(event));

      this.side = node("div", "lt-side");
      this.lastButton = node("button", "lt-button lt-last-button");
      this.lastButton.type = "button";
      this.lastButton.addEventListener("click", () => {
        this.showLast = !this.showLast;
        this.drawLast();
      });
      this.last = node("div", "lt-last");
      this.scores = node("table", "lt-scores");
      this.doubles = node("div", "lt-doubles");
      this.played = node("div", "lt-history");
      this.keys = node("div", "lt-keys");
      this.side.append(this.scores, this.doubles, this.lastButton, this.last, this.played);

      const play = node("div", "lt-play");
      play.append(this.table, this.status, this.message, this.actions, this.hand, this.keys);
      const body = node("div", "lt-body");
      body.append(play, this.side);
      frame.append(this.head, body);
    }

    drawWords() {
      this.root.setAttribute("aria-label", this.words.table);
      this.keys.textContent = this.words.keys;
      if (this.state) this.draw();
    }

    // -- drawing a state --------------------------------------------------------------

    update(state) {
      const before = this.state;
      this.state = state;
      if (!before || before.turn !== state.turn) {
        this.trumpsOpen = false;
        this.chosen.clear();
      }
      const last = state.last_trick ? JSON.stringify(state.last_trick) : null;
      const taken = before && last && last !== this.shownLast && state.trick.length === 0;
      if (taken) {
        this.holdUntil = Date.now() + HOLD_TRICK_MS; // the trick just taken, still in view
        clearTimeout(this.holdTimer);
        this.holdTimer = setTimeout(() => this.drawTrick(before), HOLD_TRICK_MS + 20);
      } else if (state.trick.length) {
        this.holdUntil = 0; // a new trick has begun: nothing to hold
      }
      this.shownLast = last;
      this.received = Date.now();
      this.draw(before);
    }

    draw(before) {
      if (!this.words || !this.state) return;
      const s = this.state;
      const w = this.words;
      this.root.classList.toggle("lt-domino", Boolean(s.contract && s.contract.domino));
      this.root.classList.toggle("lt-watching", s.seat === null);
      this.root.dataset.turn = String(s.turn);
      this.root.dataset.myTurn = s.seat !== null && s.to_act === s.seat ? "1" : "0";
      this.heading.textContent = s.deal ? fill(w.deal, { number: `${s.deal}/${s.deals}` }) : "Bonken";
      this.contract.textContent = s.contract ? s.contract.name : s.deal ? w.no_contract : "";
      if (s.contract) this.contract.append(node("span", "lt-contract-words", s.contract.description));
      this.drawSeats();
      this.drawTrick(before);
      this.drawStatus();
      this.drawActions();
      this.drawHand();
      this.drawScores();
      this.drawLast();
    }

    me() {
      return this.state.seat === null ? 2 : this.state.seat; // a spectator sits South's way
    }

    place(seat) {
      return PLACES[(seat - this.me() + 4) % 4];
    }

    card(code, rank) {
      const key = rank === 1 ? "1" : BonkenCards.rankKey(code);
      return BonkenCards.face(code, this.words.ranks[key]);
    }

    drawSeats() {
      const s = this.state;
      const w = this.words;
      for (let seat = 0; seat < 4; seat++) {
        const parts = this.seats[PLACES.indexOf(this.place(seat))];
        parts.box.dataset.seat = String(seat);
        parts.box.classList.toggle("lt-on-turn", s.to_act === seat);
        parts.box.classList.toggle("lt-mine", seat === s.seat);
        parts.name.textContent = s.names[seat] + (seat === s.seat ? ` (${w.you})` : "");
        const chips = [];
        if (s.dealer === seat) chips.push(w.dealer);
        if (s.away[seat]) chips.push(w.away);
        if (s.domino_out.includes(seat)) chips.push(`${w.out} ${s.domino_out.indexOf(seat) + 1}`);
        parts.chips.textContent = chips.join(" \u00b7 ");
        const contract = s.contract && !s.contract.domino;
        parts.stats.textContent = contract ? w.tricks[s.tricks_taken[seat]] : "";
        parts.backs.replaceChildren();
        if (seat === s.seat) continue; // his own hand is drawn face up below
        const count = s.cards_left[seat];
        const fan = node("span", "lt-fan");
        for (let i = 0; i < Math.min(count, 13); i++) fan.append(node("span", "lt-back"));
        parts.backs.append(fan, node("span", "lt-count", w.cards[count] || String(count)));
        parts.backs.setAttribute("aria-label", w.cards[count] || String(count));
      }
    }

    drawTrick(before) {
      const s = this.state;
      if (!this.words || !s) return;
      this.trick.replaceChildren();
      let plays = s.trick;
      let winner = null;
      if (!plays.length && s.last_trick && Date.now() < this.holdUntil) {
        plays = s.last_trick.cards;
        winner = s.last_trick.winner;
      }
      const seen = new Set(((before && before.trick) || []).map(([seat, code]) => code));
      const fresh = before !== undefined;
      for (const [seat, code] of plays) {
        const card = this.card(code);
        card.classList.add("lt-played", `lt-at-${this.place(seat)}`);
        if (fresh && !seen.has(code) && winner === null) card.classList.add("lt-arrive");
        if (fresh && winner !== null && before && before.trick.length === 3 && !before.trick.some(([, c]) => c === code)) {
          card.classList.add("lt-arrive");
        }
        if (seat === winner) card.classList.add("dv-winner");
        this.trick.append(card);
      }
      this.rows.replaceChildren();
      // Each rank from 2 to the ace has its column in every row (an ace laid below the
      // 2 one more), so the 8s stand one above the other and the rows grow outward.
      const first = Math.min(2, ...s.domino_rows.map(([, low]) => low));
      this.rows.style.setProperty("--slots", String(14 - first + 1));
      for (const [suit, low, high] of s.domino_rows) {
        const row = node("div", "lt-row");
        row.append(node("span", `lt-row-suit dv-suit-${suit}`, BonkenCards.SUITS[suit]));
        const cards = node("span", "lt-row-cards");
        for (let rank = low; rank <= high; rank++) {
          const letter = BonkenCards.RANK_LETTERS[(rank === 1 ? 14 : rank) - 2];
          const card = this.card(letter + suit, rank);
          card.style.gridColumn = String(rank - first + 1);
          cards.append(card);
        }
        row.append(cards);
        this.rows.append(row);
      }
    }

    drawStatus() {
      const s = this.state;
      const w = this.words;
      if (s.status === "lobby" || !s.deal) {
        this.turnLine.textContent = w.lobby;
        return;
      }
      const name = s.to_act === null ? "" : s.names[s.to_act];
      let line = "";
      if (s.seat !== null && s.to_act === s.seat) line = w.your_turn;
      else if (s.turn_kind === "choosing") line = fill(w.choosing, { name });
      else if (s.turn_kind === "doubling") line = fill(w.doubling, { name });
      else if (s.to_act !== null) line = fill(w.waiting, { name });
      if (s.seat === null) line = `${line} \u2014 ${w.spectating}`;
      this.turnLine.textContent = line;
      this.drawClock();
    }

    drawClock() {
      const s = this.state;
      if (!s || !this.words || s.seconds_left === null || s.seconds_left === undefined) {
        this.clock.textContent = "";
        return;
      }
      const left = Math.max(0, Math.ceil(s.seconds_left - (Date.now() - this.received) / 1000));
      this.clock.textContent = fill(this.words.seconds, { n: left });
      this.clock.classList.toggle("lt-hurry", left <= 10);
    }

    say(words, kind) {
      this.message.textContent = words || "";
      this.message.className = `lt-message ${kind || ""}`;
    }

    button(label, className, onClick) {
      const made = node("button", `lt-button ${className || ""}`, label);
      made.type = "button";
      made.addEventListener("click", onClick);
      return made;
    }

    drawActions() {
      const s = this.state;
      const w = this.words;
      this.actions.replaceChildren();
      if (s.choices.length) {
        const trumps = s.choices.filter((choice) => choice.trump);
        const title = node("div", "lt-ask", this.trumpsOpen ? w.choose_trump : w.choose);
        const list = node("div", "lt-choices");
        const shown = this.trumpsOpen ? trumps : s.choices.filter((choice) => !choice.trump);
        for (const choice of shown) {
          const made = this.button("", "lt-choice", () => this.send(choice.code));
          made.dataset.action = choice.code;
          made.append(node("strong", "", choice.name), node("small", "", choice.description));
          list.append(made);
        }
        if (!this.trumpsOpen && trumps.length) {
          const more = this.button("", "lt-choice lt-trumps", () => {
            this.trumpsOpen = true;
            this.drawActions();
          });
          more.append(node("strong", "", w.trumps), node("small", "", trumps.map((c) => c.name).join(", ")));
          list.append(more);
        }
        if (this.trumpsOpen) list.append(this.button(w.back, "lt-choice lt-back-button", () => {
          this.trumpsOpen = false;
          this.drawActions();
        }));
        this.actions.append(title, list);
      } else if (s.doubling) {
        this.actions.append(node("div", "lt-ask", w.double_turn));
        const list = node("div", "lt-choices");
        for (const target of s.doubling.targets) {
          const made = this.button(target.label, "lt-toggle", () => {
            if (this.chosen.has(target.seat)) this.chosen.delete(target.seat);
            else this.chosen.add(target.seat);
            this.drawActions();
          });
          made.setAttribute("aria-pressed", this.chosen.has(target.seat) ? "true" : "false");
          made.dataset.seat = String(target.seat);
          list.append(made);
        }
        const seats = [...this.chosen].sort().join("");
        if (s.doubling.targets.length) {
          const confirm = this.button(w.confirm, "lt-confirm", () => this.send(`D:${seats || "-"}`));
          confirm.disabled = !seats;
          list.append(confirm);
        }
        list.append(this.button(w.pass, "lt-pass", () => this.send("D:-")));
        this.actions.append(list);
      }
    }

    drawHand() {
      const s = this.state;
      this.hand.replaceChildren();
      this.hand.hidden = s.seat === null;
      const mine = s.seat !== null && s.to_act === s.seat && s.turn_kind === "playing";
      const legal = new Set(s.legal.map((code) => code.slice(2)));
      const count = s.hand.length;
      this.hand.style.setProperty("--count", String(Math.max(count, 1)));
      if (this.focus >= count) this.focus = count - 1;
      s.hand.forEach((code, index) => {
        const card = this.card(code);
        card.classList.add("lt-in-hand");
        card.setAttribute("role", "option");
        card.tabIndex = index === Math.max(this.focus, 0) ? 0 : -1;
        card.style.setProperty("--i", String(index));
        if (mine && !legal.has(code)) card.classList.add("lt-dim");
        if (mine && legal.has(code)) card.classList.add("lt-legal");
        card.addEventListener("click", () => this.play(code));
        card.addEventListener("focus", () => {
          this.focus = index;
        });
        this.hand.append(card);
      });
    }

    play(code) {
      this.say("", "");
      this.send(`P:${code}`);
    }

    keyed(event) {
      const cards = [...this.hand.querySelectorAll(".card")];
      if (!cards.length) return;
      const at = Math.max(0, cards.indexOf(document.activeElement));
      let next = at;
      if (event.key === "ArrowLeft") next = Math.max(0, at - 1);
      else if (event.key === "ArrowRight") next = Math.min(cards.length - 1, at + 1);
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = cards.length - 1;
      else if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.play(cards[at].dataset.card);
        return;
      } else return;
      event.preventDefault();
      cards[at].tabIndex = -1;
      cards[next].tabIndex = 0;
      cards[next].focus();
      this.focus = next;
    }

    drawScores() {
      const s = this.state;
      const w = this.words;
      this.scores.replaceChildren();
      const head = node("tr");
      head.append(node("th", "", ""), node("th", "lt-num", w.this_deal), node("th", "lt-num", w.match_total));
      const body = node("tbody");
      for (let seat = 0; seat < 4; seat++) {
        const row = node("tr", seat === s.to_act ? "lt-on-turn" : "");
        row.append(node("td", "lt-who", s.names[seat]), node("td", "lt-num", signed(s.base[seat])), node("td", "lt-num", signed(s.totals[seat])));
        body.append(row);
      }
      const thead = node("thead");
      thead.append(head);
      this.scores.append(thead, body);
      this.doubles.replaceChildren(node("div", "lt-side-title", w.doubles));
      if (!s.doubled.length) this.doubles.append(node("div", "lt-muted", w.no_doubles));
      for (const [a, b, level] of s.doubled) {
        this.doubles.append(node("div", "lt-double", `${s.names[a]} \u2194 ${s.names[b]} \u00d7${level === 2 ? 4 : 2}`));
      }
      this.played.replaceChildren(node("div", "lt-side-title", w.played), node("div", "", s.played.join(" \u00b7 ")));
    }

    drawLast() {
      const s = this.state;
      const w = this.words;
      this.lastButton.textContent = this.showLast ? w.hide_last : w.last_trick;
      this.lastButton.setAttribute("aria-expanded", this.showLast ? "true" : "false");
      this.last.replaceChildren();
      this.last.hidden = !this.showLast;
      if (!this.showLast) return;
      if (!s.last_trick) {
        this.last.append(node("div", "lt-muted", w.no_last));
        return;
      }
      const cards = node("div", "lt-last-cards");
      for (const [seat, code] of s.last_trick.cards) {
        const card = this.card(code);
        card.title = s.names[seat];
        if (seat === s.last_trick.winner) card.classList.add("dv-winner");
        cards.append(card);
      }
      this.last.append(cards, node("div", "lt-muted", s.names[s.last_trick.winner]));
    }
  }

  function mount(element, options) {
    const table = new LiveTable(element, options || {});
    return { close: () => table.close() };
  }

  function mountMarked() {
    for (const root of document.querySelectorAll("[data-bonken-table]")) {
      if (root.dataset.mounted) continue;
      root.dataset.mounted = "1";
      mount(root, { token: root.dataset.token, socketUrl: root.dataset.socket, language: root.dataset.language });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountMarked);
  else mountMarked();
  return { mount };
})();
