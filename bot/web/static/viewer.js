// The deal viewer: every point of a finished match (or a closed day's attempt) drawn in
// the browser, every hand face up. Its data is the JSON bot/web/viewer.py makes; a page
// holds it as <script type="application/json" id="ID"> and marks where it is drawn with
// <div class="deal-viewer" data-source="ID"> (data-hash-prefix="..." when a page holds
// more than one viewer). A deal given with its "steps" is drawn from them; one given
// with an "href" (a match's) is fetched from there when first shown, and the next deal
// while it is looked at; a deal's words (its "captions", one a step) come beside its
// steps. Nothing here knows a rule: the data says what each point shows;
// the script only takes each card played out of the hand it was dealt in.
// Plain modern JavaScript, no build step; no inline script (the pages' CSP forbids it).
// The card faces are cards.js's, loaded before it.
"use strict";

(() => {
  const FORMAT = "bonken-viewer/1";
  const SEATS = ["north", "east", "south", "west"];
  const { SUITS, RANK_LETTERS } = BonkenCards;
  const ROWS = ["S", "H", "C", "D"];
  const HASH = /^#(.*)deal-(\d+)-step-(\d+)$/;
  const viewers = [];
  let active = null;

  function node(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  }

  function signed(value) {
    return value === 0 ? "0" : (value > 0 ? "+" : "\u2212") + Math.abs(value);
  }

  class Viewer {
    constructor(root, data) {
      this.root = root;
      this.data = data;
      this.words = data.words;
      this.names = data.names;
      this.prefix = root.dataset.hashPrefix || "";
      this.deal = 0;
      this.step = 0;
      this.current = null; // the deal shown, with its points
      this.loaded = new Map(); // deal index -> the deal with its points
      this.fetching = new Map(); // deal index -> its fetch under way
      this.wanted = 0; // the latest point asked for: an older fetch draws nothing
      data.deals.forEach((deal, index) => { if (deal.steps) this.loaded.set(index, deal); });
      this.decisions = new Map(); // "deal.step" -> [decision with its seat]
      for (const review of data.reviews) {
        for (const decision of review.decisions) {
          const key = `${decision.deal}.${decision.step}`;
          if (!this.decisions.has(key)) this.decisions.set(key, []);
          this.decisions.get(key).push({ ...decision, seat: review.seat, name: review.name });
        }
      }
      this.build();
      const wanted = this.fromHash(location.hash);
      this.show(wanted ? wanted[0] : 0, wanted ? wanted[1] : 0, false);
    }

    // -- the page's parts, made once ---------------------------------------------------

    build() {
      const root = this.root;
      const frame = node("div", "dv");
      root.replaceChildren(frame);
      root.setAttribute("role", "region");
      root.setAttribute("aria-label", this.words.viewer);
      root.tabIndex = -1;
      const head = node("div", "dv-head");
      this.heading = node("span", "dv-heading");
      this.contract = node("span", "dv-contract");
      head.append(this.heading, this.contract);

      this.table = node("div", "dv-table");
      this.seats = SEATS.map((where, seat) => {
        const box = node("div", `dv-seat dv-${where}`);
        box.dataset.seat = seat;
        const plate = node("div", "dv-plate");
        plate.dataset.seat = seat;
        const top = node("div", "dv-plate-top");
        const name = node("span", "dv-name", this.names[seat]);
        const chips = node("span", "dv-chips");
        top.append(name, chips);
        const stats = node("div", "dv-stats");
        const settled = node("div", "dv-settled");
        const total = node("div", "dv-total");
        plate.append(top, stats, settled, total);
        const hand = node("div", "dv-hand");
        box.append(plate, hand);
        this.table.append(box);
        return { box, plate, chips, stats, settled, total, hand };
      });
      this.centre = node("div", "dv-centre");
      this.trick = node("div", "dv-trick");
      this.rows = node("div", "dv-rows");
      this.centre.append(this.trick, this.rows);
      this.last = node("div", "dv-last");
      this.doubles = node("div", "dv-doubles");
      this.table.append(this.centre, this.last, this.doubles);

      this.caption = node("div", "dv-caption");
      this.caption.setAttribute("aria-live", "polite");
      this.note = node("div", "dv-note");

      this.timeline = node("div", "dv-timeline");
      this.timeline.addEventListener("click", (event) => {
        const target = event.target.closest("[data-step]");
        if (target) this.show(this.deal, Number(target.dataset.step));
      });

      const controls = node("div", "dv-controls");
      const buttons = node("div", "dv-buttons");
      this.buttons = {};
      for (const [op, symbol] of [["start", "\u00ab"], ["back", "\u2039"], ["forward", "\u203a"], ["end", "\u00bb"]]) {
        const button = node("button", `dv-button dv-${op}`, symbol);
        button.type = "button";
        button.title = this.words[op];
        button.setAttribute("aria-label", this.words[op]);
        button.dataset.op = op;
        button.addEventListener("click", () => this.go(op));
        buttons.append(button);
        this.buttons[op] = button;
      }
      this.position = node("span", "dv-position");
      const menus = node("div", "dv-menus");
      this.dealMenu = this.menu(this.words.deal, "dv-deal-menu");
      this.data.deals.forEach((deal, index) => {
        const marked = this.data.reviews.some((r) => r.decisions.some((d) => d.deal === index));
        this.dealMenu.select.append(new Option(deal.title + (marked ? " \u25cf" : ""), String(index)));
      });
      this.dealMenu.select.addEventListener("change", () => this.show(Number(this.dealMenu.select.value), 0));
      this.trickMenu = this.menu(this.words.trick, "dv-trick-menu");
      this.trickMenu.select.addEventListener("change", () => {
        const steps = this.current.tricks;
        const chosen = Number(this.trickMenu.select.value);
        if (chosen >= 0) this.show(this.deal, steps[chosen]);
      });
      menus.append(this.dealMenu.label, this.trickMenu.label);
      controls.append(buttons, this.position, menus);

      const keys = node("div", "dv-keys", this.words.keys);
      frame.append(head, this.table, this.caption, this.note, this.timeline, controls, keys);
      if (this.data.reviews.length) frame.append(this.reviewList());
      root.addEventListener("pointerdown", () => { active = this; });
      root.addEventListener("focusin", () => { active = this; });
    }

    menu(words, className) {
      const label = node("label", `dv-menu ${className}`);
      const text = node("span", "dv-menu-label", words);
      const select = node("select");
      label.append(text, select);
      return { label, select };
    }

    reviewList() {
      const box = node("div", "dv-review");
      for (const review of this.data.reviews) {
        // Costliest first: "costliest" is the review's rank (null for the others).
        const costly = review.decisions
          .filter((d) => d.costliest !== null && d.costliest !== false)
          .sort((a, b) => Number(a.costliest) - Number(b.costliest));
        if (!costly.length) continue;
        box.append(node("h3", "dv-review-title", `${this.words.costliest} \u00b7 ${review.name}`));
        const list = node("ol", "dv-costliest");
        for (const decision of costly) {
          const item = node("li");
          const link = node("a", `dv-link dv-${decision.class}`, decision.line);
          link.href = "#" + this.anchor(decision.deal, decision.step);
          link.addEventListener("click", (event) => {
            event.preventDefault();
            active = this;
            this.show(decision.deal, decision.step);
            this.root.scrollIntoView({ block: "start" });
          });
          item.append(link);
          list.append(item);
        }
        box.append(list);
      }
      return box;
    }

    // -- where it is --------------------------------------------------------------------

    anchor(deal, step) {
      return `${this.prefix}deal-${this.data.deals[deal].number}-step-${step}`;
    }

    fromHash(hash) {
      const found = HASH.exec(hash);
      if (!found || found[1] !== this.prefix) return null;
      const deal = this.data.deals.findIndex((d) => d.number === Number(found[2]));
      if (deal < 0) return null;
      return [deal, Number(found[3])]; // past the deal's end: its end, once it is known
    }

    go(op) {
      if (!this.current) return; // the first deal is still on its way
      const deals = this.data.deals;
      const last = this.current.steps.length - 1;
      if (op === "start") this.show(this.deal, 0);
      else if (op === "end") this.show(this.deal, last);
      else if (op === "forward") {
        if (this.step < last) this.show(this.deal, this.step + 1);
        else if (this.deal + 1 < deals.length) this.show(this.deal + 1, 0);
      } else if (op === "back") {
        if (this.step > 0) this.show(this.deal, this.step - 1);
        else if (this.deal > 0) this.show(this.deal - 1, Infinity);
      }
    }

    // -- a deal's points -------------------------------------------------------------------

    load(deal) {
      if (this.loaded.has(deal)) return Promise.resolve(this.loaded.get(deal));
      let fetching = this.fetching.get(deal);
      if (!fetching) {
        fetching = fetch(this.data.deals[deal].href, { credentials: "same-origin" })
          .then((response) => (response.ok ? response.json() : null))
          .then((points) => {
            if (!points || points.format !== FORMAT || !points.steps || !points.steps.length) {
              throw new Error("not a deal");
            }
            this.loaded.set(deal, points);
            return points;
          })
          .finally(() => this.fetching.delete(deal)); // a failed fetch is tried again
        this.fetching.set(deal, fetching);
      }
      return fetching;
    }

    prefetch(deal) {
      if (deal < this.data.deals.length && !this.loaded.has(deal)) {
        this.load(deal).catch(() => {}); // said when that deal is shown, if it fails again
      }
    }

    // -- drawing a point ----------------------------------------------------------------

    // Shows point `step` of `deal` (a step past its end: its end), at once if the deal's
    // points are here, else once they are fetched (unless another point was asked for
    // meanwhile).
    show(deal, step, remember = true) {
      const wanted = ++this.wanted;
      const ready = this.loaded.get(deal);
      if (ready) {
        this.draw(deal, ready, step, remember);
        return;
      }
      this.root.setAttribute("aria-busy", "true");
      this.load(deal).then(
        (data) => { if (wanted === this.wanted) this.draw(deal, data, step, remember); },
        () => {
          if (wanted !== this.wanted) return;
          this.root.removeAttribute("aria-busy");
          this.root.dataset.failed = this.data.deals[deal].number;
          this.caption.textContent = this.words.unavailable;
        },
      );
    }

    draw(deal, data, wantedStep, remember) {
      const step = Math.min(wantedStep, data.steps.length - 1);
      const point = data.steps[step];
      this.root.removeAttribute("aria-busy");
      delete this.root.dataset.failed;
      const newDeal = data !== this.current;
      this.current = data;
      this.deal = deal;
      this.step = step;
      this.root.dataset.deal = data.number;
      this.root.dataset.step = step;
      this.root.classList.toggle("dv-domino", data.domino);
      this.heading.textContent = data.heading;
      this.contract.textContent = step === 0 ? this.words.choosing : data.contract_name;
      this.caption.textContent = data.captions[step];
      const hands = this.hands(data, step);
      const decisions = this.decisions.get(`${deal}.${step}`) || [];
      for (let seat = 0; seat < 4; seat++) this.drawSeat(data, point, seat, hands[seat], decisions);
      if (data.domino) this.drawRows(point);
      else this.drawTrick(point);
      this.drawLast(point);
      this.drawDoubles(point);
      this.drawNote(decisions);
      if (newDeal) this.drawTimeline(data, deal);
      this.markTimeline(step);
      this.drawControls(data, step);
      if (remember) {
        const anchor = "#" + this.anchor(deal, step);
        if (location.hash !== anchor) history.replaceState(null, "", anchor);
      }
      this.prefetch(deal + 1);
    }

    hands(data, step) {
      const played = new Set();
      for (let at = 1; at <= step; at++) {
        const action = data.steps[at].action;
        if (action && action.startsWith("P:")) played.add(action.slice(2));
      }
      return data.hands.map((hand) => hand.filter((card) => !played.has(card)));
    }

    drawSeat(data, point, seat, hand, decisions) {
      const parts = this.seats[seat];
      parts.plate.classList.toggle("dv-to-act", point.to_act === seat);
      parts.plate.dataset.taken = point.taken[seat];
      parts.plate.dataset.base = point.base[seat];
      parts.plate.dataset.final = point.final[seat];
      parts.plate.dataset.total = point.totals[seat];
      const chips = [];
      if (data.dealer === seat) chips.push(node("span", "dv-chip dv-dealer", this.words.dealer));
      if (data.chooser === seat) chips.push(node("span", "dv-chip dv-chooser", "\u2605"));
      parts.chips.replaceChildren(...chips);
      let first;
      if (data.domino) {
        const place = (point.out || []).indexOf(seat);
        first = place >= 0
          ? "\u2714 " + fill(this.words.out, { place: this.data.ordinals[place] })
          : this.data.cards[hand.length];
      } else {
        first = `${this.data.tricks[point.taken[seat]]} \u00b7 ${signed(point.base[seat])}`;
      }
      parts.stats.textContent = first;
      const doubled = point.doubled.some(([a, b]) => a === seat || b === seat);
      parts.settled.hidden = !doubled;
      parts.settled.textContent = fill(this.words.after_doubling, { score: signed(point.final[seat]) });
      parts.total.textContent = fill(this.words.total, { total: signed(point.totals[seat]) });
      const mine = decisions.filter((d) => d.seat === seat);
      const chosen = new Set(mine.map((d) => d.chosen).filter(Boolean));
      const better = new Set(mine.map((d) => d.best).filter(Boolean));
      const bySuit = new Map(ROWS.map((suit) => [suit, []]));
      for (const code of hand) {
        const card = this.card(code);
        if (chosen.has(code)) card.classList.add("dv-chosen");
        if (better.has(code)) card.classList.add("dv-better");
        bySuit.get(code.slice(-1)).push(card);
      }
      const rows = [];
      for (const [suit, cards] of bySuit) {
        if (!cards.length) continue;
        const row = node("div", "dv-suit");
        row.dataset.suit = suit;
        row.style.setProperty("--n", String(Math.max(cards.length, 2)));
        row.append(...cards);
        rows.push(row);
      }
      parts.hand.replaceChildren(...rows);
    }

    drawTrick(point) {
      const cards = point.trick.map(([seat, code]) => {
        const card = this.card(code);
        card.classList.add("dv-played", `dv-at-${SEATS[seat]}`);
        card.dataset.seat = seat;
        if (point.winner === seat) card.classList.add("dv-winner");
        return card;
      });
      this.trick.replaceChildren(...cards);
      this.rows.replaceChildren();
    }

    drawRows(point) {
      const laid = new Map((point.rows || []).map(([suit, low, high]) => [suit, [low, high]]));
      const rows = ROWS.map((suit) => {
        const row = node("div", "dv-row");
        row.dataset.suit = suit;
        const symbol = node("span", `dv-row-suit dv-suit-${suit}`, SUITS[suit]);
        const cards = node("div", "dv-row-cards");
        const range = laid.get(suit);
        if (range) {
          for (let rank = range[0]; rank <= range[1]; rank++) {
            const code = RANK_LETTERS[(rank === 1 ? 14 : rank) - 2] + suit;
            const card = this.card(code, rank === 1 ? "1" : undefined);
            if (point.action === "P:" + code) card.classList.add("dv-winner");
            cards.append(card);
          }
        }
        cards.style.setProperty("--n", String(Math.max(cards.childElementCount, 2)));
        row.append(symbol, cards);
        return row;
      });
      this.rows.replaceChildren(...rows);
      this.trick.replaceChildren();
    }

    drawLast(point) {
      if (!point.last) {
        this.last.replaceChildren();
        return;
      }
      const title = node("div", "dv-corner-title", `${this.words.last_trick} \u00b7 ${this.names[point.last.winner]}`);
      const cards = node("div", "dv-last-cards");
      for (const [seat, code] of point.last.cards) {
        const card = this.card(code);
        card.dataset.seat = seat;
        if (seat === point.last.winner) card.classList.add("dv-winner");
        cards.append(card);
      }
      this.last.replaceChildren(title, cards);
    }

    drawDoubles(point) {
      const lines = point.doubled.map(([a, b, level]) => {
        const words = level === 2 ? this.words.redoubled : this.words.doubled;
        const line = node("div", "dv-double", fill(words, { a: this.names[a], b: this.names[b] }));
        line.dataset.pair = `${a}-${b}-${level}`;
        return line;
      });
      const title = node("div", "dv-corner-title", this.words.doubling);
      if (!lines.length) lines.push(node("div", "dv-double dv-none", this.words.no_doubles));
      this.doubles.replaceChildren(title, ...lines);
    }

    drawNote(decisions) {
      const notes = decisions.map((decision) => {
        const note = node("div", `dv-decision dv-${decision.class}`);
        note.dataset.seat = decision.seat;
        const badge = node("span", "dv-badge", decision.mark);
        badge.title = decision.class_name;
        note.append(badge, node("span", "dv-decision-line", `${decision.name}: ${decision.line}`));
        return note;
      });
      this.note.replaceChildren(...notes);
    }

    drawTimeline(data, deal) {
      const marks = [];
      const tricks = new Set(data.tricks);
      data.captions.forEach((caption, step) => {
        const tick = node("span", "dv-tick");
        tick.dataset.step = step;
        tick.title = caption;
        if (tricks.has(step)) tick.classList.add("dv-trick-end");
        for (const decision of this.decisions.get(`${deal}.${step}`) || []) {
          const mark = node("span", `dv-mark dv-${decision.class}`);
          mark.dataset.deal = data.number;
          mark.dataset.step = step;
          mark.dataset.class = decision.class;
          mark.title = `${decision.name}: ${decision.line}`;
          tick.append(mark);
        }
        marks.push(tick);
      });
      this.timeline.replaceChildren(...marks);
      const select = this.trickMenu.select;
      select.replaceChildren(new Option("\u2013", "-1"));
      data.tricks.forEach((_, index) => select.append(new Option(fill(this.words.trick_number, { number: index + 1 }), String(index))));
      this.trickMenu.label.hidden = data.domino || !data.tricks.length;
    }

    markTimeline(step) {
      for (const tick of this.timeline.children) {
        const at = Number(tick.dataset.step);
        tick.classList.toggle("dv-now", at === step);
        tick.classList.toggle("dv-past", at < step);
      }
    }

    drawControls(data, step) {
      const lastStep = data.steps.length - 1;
      const first = this.deal === 0 && step === 0;
      const final = this.deal === this.data.deals.length - 1 && step === lastStep;
      this.buttons.start.disabled = step === 0;
      this.buttons.back.disabled = first;
      this.buttons.forward.disabled = final;
      this.buttons.end.disabled = step === lastStep;
      this.position.textContent = fill(this.words.step, { step, steps: lastStep });
      this.dealMenu.select.value = String(this.deal);
      // The menu names the trick on the table: the one being played, or the one just taken.
      const done = data.tricks.filter((at) => at < step).length;
      const playing = data.steps[step].trick.length > 0 || data.tricks.includes(step);
      this.trickMenu.select.value = String(Math.min(playing ? done : done - 1, data.tricks.length - 1));
    }

    card(code, rankKey) {
      return BonkenCards.face(code, this.data.ranks[rankKey || BonkenCards.rankKey(code)]);
    }
  }

  function keyed(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const viewer = active || viewers[0];
    if (!viewer) return;
    event.preventDefault();
    viewer.go(event.key === "ArrowLeft" ? "back" : "forward");
  }

  function followHash() {
    for (const viewer of viewers) {
      const wanted = viewer.fromHash(location.hash);
      if (wanted && (wanted[0] !== viewer.deal || wanted[1] !== viewer.step)) {
        active = viewer;
        viewer.show(wanted[0], wanted[1], false);
      }
    }
  }

  function mount() {
    for (const root of document.querySelectorAll("div.deal-viewer[data-source]")) {
      if (root.dataset.mounted) continue;
      root.dataset.mounted = "1";
      const source = document.getElementById(root.dataset.source);
      let data = null;
      try {
        data = source ? JSON.parse(source.textContent) : null;
      } catch (error) {
        data = null;
      }
      if (!data || data.format !== FORMAT || !data.deals || !data.deals.length) {
        root.classList.add("dv-empty");
        continue;
      }
      viewers.push(new Viewer(root, data));
    }
  }

  document.addEventListener("keydown", keyed);
  window.addEventListener("hashchange", followHash);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
  else mount();
})();
