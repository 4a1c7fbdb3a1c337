// Escape's web board: one page, three doors (a personal link, a Telegram Mini App, a
// Discord Activity) and a spectator link. No framework: the server decides who sees what;
// this page says hello on its socket, is sent its table, then pushed every change, and
// sends presses over the same socket.
"use strict";

const PREFIX = location.pathname.startsWith("/.proxy/") ? "/.proxy" : "";
const PATH = location.pathname.slice(PREFIX.length) || "/";
const $ = (id) => document.getElementById(id);

const S = {
  table: null, watch: null, token: null, seat: null, version: null, page: null, game: null,
  socket: null, retry: 500, busy: false, frames: 0, gone: false, views: new Map(),
  turn: null, covered: null,
};

// the page's words in the reader's language, filled in where the page was served
const WORDS = JSON.parse(($("words") || {}).textContent || "{}");
function w(key, args = {}) {
  return (WORDS[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in args ? String(args[name]) : all));
}
function say(text) { $("status").textContent = text || ""; }

function authHeaders() { return S.token ? { Authorization: "Bearer " + S.token } : {}; }

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {}, authHeaders());
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(options.json);
  }
  const answer = await fetch(PREFIX + path, { credentials: "same-origin", ...options, headers });
  const body = (answer.headers.get("Content-Type") || "").includes("json") ? await answer.json() : {};
  if (!answer.ok) throw new Error(body.error || answer.statusText);
  return body;
}

// A picture that only its owner may load (a player's own view) is fetched with the
// session, which an app page keeps in memory (no cookie reaches an app's frame).
async function privatePicture(path) {
  if (S.views.has(path)) return S.views.get(path);
  const answer = await fetch(PREFIX + path, { credentials: "same-origin", headers: authHeaders() });
  if (!answer.ok) throw new Error(((await answer.json().catch(() => ({}))).error) || answer.statusText);
  const url = URL.createObjectURL(await answer.blob());
  for (const [old, made] of S.views) { URL.revokeObjectURL(made); S.views.delete(old); }
  S.views.set(path, url);
  return url;
}

// ----- Telegram's theme and sign-in ------------------------------------------------------
function telegramParams() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const search = new URLSearchParams(location.search);
  return { initData: hash.get("tgWebAppData") || search.get("tgWebAppData"), theme: hash.get("tgWebAppThemeParams") };
}

function applyTheme(theme) {
  if (!theme) return;
  const root = document.documentElement.style;
  const map = { bg_color: "--bg", text_color: "--text", hint_color: "--hint",
    secondary_bg_color: "--panel", button_color: "--button", button_text_color: "--button-text" };
  for (const [key, variable] of Object.entries(map)) if (theme[key]) root.setProperty(variable, theme[key]);
}

// The Mini App speaks to Telegram as its page script would (core.telegram.org/api/web-events):
// out by TelegramWebviewProxy (the mobile apps) or a message to the parent frame (the web
// clients); in by Telegram.WebView.receiveEvent or a message. No script of Telegram's is
// loaded: the page's Content-Security-Policy allows only its own.
const TG = { on: false, main: null, back: null };

function tgPost(type, data = {}) {
  if (!TG.on) return;
  const proxy = window.TelegramWebviewProxy;
  if (proxy && proxy.postEvent) proxy.postEvent(type, JSON.stringify(data));
  else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
}

function tgEvent(type, data) {
  if (type === "theme_changed") applyTheme(data && data.theme_params);
  else if (type === "safe_area_changed" || type === "content_safe_area_changed") safeArea(type, data || {});
  else if (type === "main_button_pressed" && TG.main) TG.main();
  else if (type === "back_button_pressed" && TG.back) TG.back();
}

function safeArea(type, inset) {
  // Telegram's own bars cover the page's edges in full screen: keep clear of them
  const prefix = type === "safe_area_changed" ? "--tg-safe" : "--tg-content-safe";
  const root = document.documentElement.style;
  for (const side of ["top", "bottom", "left", "right"]) root.setProperty(`${prefix}-${side}`, (+inset[side] || 0) + "px");
}

function tgButtons() {
  // Main: the one thing to do now, where there is one (a hand-over, the only move with no
  // place on the board, the lobby's Begin); Back: closes what is open over the table
  if (!TG.on) return;
  const hand = !$("handover").hidden ? $("handover-show") : null;
  const lone = [...$("moves").querySelectorAll(":scope > li > button")];
  const main = hand || (lone.length === 1 ? lone[0] : null);
  TG.main = main ? () => main.click() : null;
  tgPost("web_app_setup_main_button", main
    ? { is_visible: true, is_active: true, text: main.textContent.slice(0, 64) } : { is_visible: false });
  const open = !$("chooser").hidden ? () => { $("chooser").hidden = true; tgButtons(); }
    : !$("lesson").hidden ? () => { $("lesson").hidden = true; tgButtons(); } : null;
  TG.back = open;
  tgPost("web_app_setup_back_button", { is_visible: !!open });
}

window.Telegram = window.Telegram || {};
window.Telegram.WebView = { receiveEvent: (type, data) => tgEvent(type, data) };
window.addEventListener("message", (event) => {  // Telegram's web clients tell a Mini App so
  try {
    const data = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
    if (data && data.eventType) tgEvent(data.eventType, data.eventData);
  } catch (_) { /* not Telegram's */ }
});

// ----- showing the table -----------------------------------------------------------------
function list(element, items, append = false) {
  const made = items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  });
  if (append) element.append(...made); else element.replaceChildren(...made);
}

function button(label, onPress, extra = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onPress);
  Object.assign(b, extra);
  return b;
}

// ----- the board's layout: at a phone's width a board drawn for it (render/narrow), where
// the game has one; else the wide board, which then keeps a readable size and scrolls
const PHONE = window.matchMedia("(max-width: 760px)");
function narrow(page) { return !!(page && page.narrow && PHONE.matches); }
function regionOf(move, page) { return narrow(page) ? move.narrow : move.region; }

function placeRegions(layer, image, moves, page) {
  // one button a place; several moves at one place open a chooser of those moves
  const byBox = new Map();
  for (const m of moves) {
    const region = regionOf(m, page);
    if (!region) continue;
    const key = region.join(",");
    if (!byBox.has(key)) byBox.set(key, []);
    byBox.get(key).push(m);
  }
  const draw = () => {
    const w = image.naturalWidth, h = image.naturalHeight;
    if (!w || !h) return;
    // a wide board at a phone's width (board.css) keeps a size at which its legends, drawn
    // at 16 px or more, stay readable (at least 11 px), and scrolls sideways; a narrow one
    // (drawn for the phone) fits its width
    $("board-wrap").style.setProperty("--board-min", narrow(page) ? "0px" : Math.round(w * 0.7) + "px");
    layer.replaceChildren();
    for (const [key, here] of byBox) {
      const [x0, y0, x1, y1] = key.split(",").map(Number);
      const label = here.length === 1 ? here[0].label : here.map((m) => m.label).join(" / ");
      const b = button("", () => (here.length === 1 ? press(here[0].data) : choose(here)),
        { title: label, className: "region" });
      b.setAttribute("aria-label", label);
      Object.assign(b.style, { left: (100 * x0 / w) + "%", top: (100 * y0 / h) + "%",
        width: (100 * (x1 - x0) / w) + "%", height: (100 * (y1 - y0) / h) + "%" });
      b.dataset.moves = here.map((m) => m.data).join(" ");
      layer.append(b);
    }
  };
  layer.replaceChildren();
  if (image.complete && image.naturalWidth) draw();
  image.onload = draw;
}

function choose(moves) {
  const box = $("chooser");
  box.hidden = false;
  box.replaceChildren(...moves.map((m) => button(m.label, () => press(m.data))),
    button(w("cancel"), () => { box.hidden = true; tgButtons(); }));
  box.querySelector("button").focus();
  tgButtons();
}

async function showPicture(page) {
  // a player of a game with secrets sees their own view: the board with their hand, drawn once
  const board = $("board");
  const mine = page.view !== null;
  board.alt = mine ? page.private_text : (page.alt || page.caption);
  const layout = narrow(page) ? "?layout=narrow" : "";
  $("board-wrap").classList.toggle("narrow", !!layout);
  try {
    const src = mine ? await privatePicture(page.view + layout)
      : (page.board ? PREFIX + page.board + layout : "");
    if (S.page !== page) return;  // a newer page came meanwhile
    if (src && board.getAttribute("src") !== src) board.src = src;
    board.hidden = !src;
  } catch (error) { say(error.message); }
  placeRegions($("board-regions"), board, page.moves, page);
}

// ----- hot-seat at this machine: the page plays the seat chosen in "Playing as", and
// follows the turn to whichever of this machine's players is to act. In a game with
// secrets the device is handed over first: the next player's view stays covered until
// they say they hold it (as the terminal clears its screen).
function actingKey(page) {
  return page.players.filter((p) => p.acting).map((p) => p.seat).join(",");
}

function followTurn(page) {
  const mine = page.seats_you_may_play;
  const turn = actingKey(page);
  const moved = S.turn !== null && turn !== S.turn;
  S.turn = turn;
  if (mine.length < 2) { S.seat = page.seat; return false; }
  const next = page.players.find((p) => p.acting && mine.includes(p.seat));
  if (moved && next && next.seat !== page.seat) {
    switchSeat(next.seat, page.secrets);
    return true;
  }
  if (S.seat === null) {  // the seat the server chose: the page keeps it until the turn moves
    S.seat = page.seat;
    hello();
  }
  return false;
}

function switchSeat(seat, covered) {
  S.seat = seat;
  S.covered = covered ? seat : null;
  hello();
}

function handOver(page) {
  // a game with secrets: the seat's view stays covered until its player takes the device
  const box = $("handover");
  const covered = S.covered !== null && page.seat === S.covered && page.secrets;
  box.hidden = !covered;
  if (!covered) return;
  $("table").hidden = true;
  const name = page.players[page.seat].name;
  $("handover-text").textContent = w("pass_to", { name });
  const show = $("handover-show");
  show.textContent = w("show_as", { name });
  show.onclick = () => {
    S.covered = null; box.hidden = true; $("table").hidden = false; $("moves-h").focus(); tgButtons();
  };
  show.focus();
}

function render(page, whole) {
  S.page = page;
  S.version = page.version;
  document.title = `${page.title} #${page.table} · Escape`;
  $("title").textContent = w("heading", { game: page.title, id: page.table });
  $("who").textContent = page.you ? w("signed_in", { name: page.you })
    : page.standing === "player" ? w("here") : w("watching");
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("clock").textContent = page.clock;
  list($("players"), page.players.map((p) => {
    let name = p.name;  // (a bot's name says it is one: "Bot 1 (hard)")
    if (p.you) name = w("you", { name });
    return p.acting ? w("to_act", { name }) : name;
  }));
  [...$("players").children].forEach((li, i) => li.classList.toggle("acting", page.players[i].acting));
  if (followTurn(page)) return;  // another of this machine's players is to act: theirs now
  const pick = $("seat");
  $("seat-pick").hidden = page.seats_you_may_play.length < 2;
  pick.replaceChildren(...page.seats_you_may_play.map((seat) => {
    const o = document.createElement("option");
    o.value = seat; o.textContent = page.players[seat].name; o.selected = seat === page.seat;
    return o;
  }));
  $("caption").textContent = page.caption;
  $("alt").textContent = page.alt;
  $("view-words").hidden = !page.private_text;
  $("view-text").textContent = page.private_text;
  const started = page.status !== "lobby";
  $("board-figure").hidden = !started;
  if (started) showPicture(page);
  $("chooser").hidden = true;
  // what the viewer can do: a player their moves, a member of the chat Join, a finished
  // game who won; a spectator is told they watch
  const player = page.standing === "player";
  $("moves-h").textContent = page.result ? w("game_over") : WORDS_HEADING;
  $("result").textContent = page.result || "";
  showMoves(page, player);
  if (whole) {
    list($("log"), page.log);
    list($("own-log"), page.own_log);
  } else {
    list($("log"), page.log_add, true);
    list($("own-log"), page.own_log_add, true);
    $("notes").textContent = (page.notes || []).join("\n");
  }
  $("log").scrollTop = $("log").scrollHeight;
  $("own-log-box").hidden = !$("own-log").children.length;
  S.frames = page.frames;
  const slider = $("replay");
  slider.max = Math.max(0, page.frames - 1);
  if (slider.dataset.followed !== "no") slider.value = slider.max;
  $("replay-n").textContent = page.frames ? w("frame_of", { n: +slider.value + 1, count: page.frames }) : "";
  S.game = page.game;
  $("review").hidden = !page.result;  // a finished game's review, beside its replay
  $("learn-box").hidden = !page.you && page.standing !== "player";  // a lesson is a signed-in player's
  $("watch-link").textContent = page.watch_key
    ? w("spectators", { url: `${location.origin}${PREFIX}/watch/${page.table}/${page.watch_key}` }) : "";
  handOver(page);
  tgButtons();
}
const WORDS_HEADING = (document.getElementById("moves-h") || {}).textContent;

// ----- moves ------------------------------------------------------------------------------
function showMoves(page, player) {
  // every move a button in a list (Tab, or the arrow keys within it, then Enter): those
  // with no place on the board first, grouped by kind (a long kind folded); those tapped on
  // the board folded under one heading, for the keyboard and a screen reader
  const onBoard = page.moves.filter((m) => regionOf(m, page));
  const items = grouped([...page.moves.filter((m) => !regionOf(m, page)), ...page.shared]);
  if (onBoard.length) items.push(folded(w("on_board", { count: onBoard.length }), onBoard));
  $("moves").replaceChildren(...items);
  if (!items.length && !page.result) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = !player ? w("watching_only") : page.status === "lobby" ? w("lobby_waiting")
      : page.status === "active" ? w("waiting") : "";
    if (li.textContent) $("moves").append(li);
  }
}

const FOLD = 4;  // a kind of move with more choices than this is folded

function item(m) {
  const li = document.createElement("li");
  li.append(button(m.label, () => press(m.data)));
  return li;
}

function folded(title, moves) {
  const li = document.createElement("li");
  li.className = "folded";
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = title;
  const list = document.createElement("ul");
  list.className = "moves";
  list.append(...moves.map(item));
  details.append(summary, list);
  li.append(details);
  return li;
}

function grouped(moves) {
  // moves of one kind (their first word: place, move, play) together; a long kind folded
  const kinds = new Map();
  for (const m of moves) {
    const kind = m.kind || m.data;
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(m);
  }
  const out = [];
  for (const group of kinds.values()) {
    if (group.length > FOLD) out.push(folded(w("more_moves", { first: group[0].label, count: group.length }), group));
    else out.push(...group.map(item));
  }
  return out;
}

function arrows(event) {
  // the arrow keys move along the list of moves (Home and End to its ends)
  const list = [...$("moves").querySelectorAll("button:not([disabled])")].filter((b) => b.offsetParent);
  const at = list.indexOf(document.activeElement);
  if (at < 0) return;
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
  const to = step ? at + step : event.key === "Home" ? 0 : event.key === "End" ? list.length - 1 : null;
  if (to === null || !list.length) return;
  event.preventDefault();
  list[(to + list.length) % list.length].focus();
}

async function ask(event) {
  // one question about the board (/escape describe), answered in words
  event.preventDefault();
  const answer = $("ask-answer");
  try {
    const made = await api(`/api/tables/${S.table}/describe`, { method: "POST",
      json: { what: $("ask-what").value, seat: S.seat, watch: S.watch } });
    answer.textContent = made.text;
  } catch (error) { answer.textContent = error.message; }
}

function press(data) {
  if (!S.socket || S.socket.readyState !== WebSocket.OPEN || S.busy) return;
  S.busy = true;
  document.querySelectorAll("#moves button, .regions button").forEach((b) => { b.disabled = true; });
  S.socket.send(JSON.stringify({ press: { data, seat: S.seat } }));
}

function pressed(answer) {
  S.busy = false;
  if (!answer.ok) $("notes").textContent = answer.error;
  document.querySelectorAll("#moves button, .regions button").forEach((b) => { b.disabled = false; });
  if (!answer.ok && answer.stale) hello();
}

// ----- lessons: the viewer's own, beside the table ---------------------------------------
async function lesson(body) {
  try {
    showLesson(await api("/api/learn", { method: "POST", json: body }));
  } catch (error) { $("lesson-text").textContent = error.message; $("lesson").hidden = false; }
}

function showLesson(step) {
  $("lesson").hidden = false;
  $("lesson-text").textContent = step.text;
  const img = $("lesson-board");
  img.hidden = !step.picture;
  if (step.picture) { img.src = step.picture; img.alt = step.alt; }
  $("lesson-moves").replaceChildren(...step.choices.map((c) => c.play
    ? button(c.label, () => playAgainstBot())
    : button(c.label, () => lesson({ press: c.data }))));
  $("lesson-moves").querySelector("button")?.focus();
  tgButtons();
}

async function playAgainstBot() {
  // at this machine a real game is begun here; elsewhere the lesson's words say how
  try {
    const made = await api("/api/local/tables", { method: "POST",
      json: { game: S.game, players: $("player-names").value, options: "" } });
    location.assign(`${PREFIX}/table/${made.table}`);
  } catch (error) { $("lesson-text").textContent = error.message; }
}

// ----- a finished game's review, beside the replay ---------------------------------------
async function review() {
  const query = new URLSearchParams();
  if (S.watch) query.set("watch", S.watch);
  if (S.seat !== null) query.set("seat", S.seat);
  $("review-box").hidden = false;
  $("review-text").textContent = w("reviewing");
  try {
    const made = await api(`/api/tables/${S.table}/review?${query}`);
    $("review-text").textContent = made.text;
    const img = $("review-chart");
    img.hidden = !made.picture;
    if (made.picture) { img.src = made.picture; img.alt = made.alt; }
  } catch (error) { $("review-text").textContent = error.message; }
}

// ----- the socket: hello, then the table and its changes ---------------------------------
function hello() {
  if (S.socket && S.socket.readyState === WebSocket.OPEN) {
    S.socket.send(JSON.stringify({ hello: { table: S.table, watch: S.watch, token: S.token, seat: S.seat } }));
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${PREFIX}/api/live`);
  S.socket = socket;
  socket.onopen = () => { S.retry = 500; hello(); };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.page) { render(message.page, true); say(""); }
    else if (message.update) render(message.update, false);
    else if (message.pressed) pressed(message.pressed);
    else if (message.gone) { S.gone = true; say(w("gone")); $("table").hidden = true; }
    else if (message.error) say(message.error);
  };
  socket.onclose = () => {
    if (S.socket !== socket || S.gone) return;
    S.busy = false;
    setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 15000);
  };
}

function showTable(table) {
  S.table = table;
  connect();
}

// ----- the replay slider ------------------------------------------------------------------
async function showFrame() {
  const slider = $("replay");
  slider.dataset.followed = +slider.value === +slider.max ? "yes" : "no";
  const n = +slider.value;
  $("replay-n").textContent = w("frame_of", { n: n + 1, count: S.frames });
  const frame = $("frame");
  const watch = S.watch ? `?watch=${encodeURIComponent(S.watch)}` : "";
  try {
    frame.src = await privatePicture(`/api/tables/${S.table}/frames/${n}.png${watch}`);
    frame.hidden = false;
    frame.alt = w("frame_alt", { n: n + 1 });
  } catch (error) { say(error.message); }
}

// ----- local play -------------------------------------------------------------------------
function showOptions(game) {
  const box = $("game-options");
  box.replaceChildren(box.querySelector("legend"), ...game.options.map((option) => {
    const label = document.createElement("label");
    label.append(`${option.title}: ${option.about}`);  // (its name, as typed, is the select's)
    const select = document.createElement("select");
    select.name = option.name;
    select.append(...option.choices.map((c) => {
      const o = document.createElement("option");
      o.value = c.value; o.textContent = c.label; o.selected = c.value === option.default;
      return o;
    }));
    label.append(select);
    return label;
  }));
  box.hidden = !game.options.length;
}

async function localLobby() {
  const found = await api("/api/local/tables");
  $("lobby").hidden = false;
  $("who").textContent = w("here");
  $("saved").replaceChildren(...found.tables.map((t) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `${PREFIX}/table/${t.id}`;
    a.textContent = t.text;
    li.append(a);
    return li;
  }));
  const games = new Map(found.games.map((g) => [g.id, g]));
  $("game").replaceChildren(...found.games.map((g) => {
    const o = document.createElement("option");
    o.value = g.id; o.textContent = w("game_choice", { game: g.title, players: g.players });
    return o;
  }));
  $("game").onchange = () => showOptions(games.get($("game").value));
  showOptions(games.get($("game").value));
  $("new-game").onsubmit = async (event) => {
    event.preventDefault();
    const options = [...$("game-options").querySelectorAll("select")].map((s) => `${s.name}=${s.value}`).join(" ");
    try {
      const made = await api("/api/local/tables", { method: "POST",
        json: { game: $("game").value, players: $("player-names").value, options } });
      location.assign(`${PREFIX}/table/${made.table}`);
    } catch (error) { say(error.message); }
  };
}

// ----- the doors --------------------------------------------------------------------------
async function start() {
  $("replay").addEventListener("input", showFrame);
  $("moves").addEventListener("keydown", arrows);
  PHONE.addEventListener("change", () => {  // turned, or resized past a phone's width
    if (!S.page || S.page.status === "lobby") return;
    showPicture(S.page);
    showMoves(S.page, S.page.standing === "player");
  });
  $("ask").addEventListener("submit", ask);
  $("learn").addEventListener("click", () => lesson({ what: S.game }));
  $("review").addEventListener("click", review);
  $("lesson-close").addEventListener("click", () => { $("lesson").hidden = true; tgButtons(); });
  $("seat").addEventListener("change", () => switchSeat(+$("seat").value, false));
  let m;
  try {
    if ((m = PATH.match(/^\/table\/(\d+)$/))) return showTable(+m[1]);
    if ((m = PATH.match(/^\/watch\/(\d+)\/([\w-]+)$/))) { S.watch = m[2]; return showTable(+m[1]); }
    if (PATH === "/tg") {
      const tg = telegramParams();
      applyTheme(tg.theme ? JSON.parse(tg.theme) : null);
      TG.on = true;
      document.documentElement.classList.add("telegram");
      tgPost("web_app_ready");
      tgPost("web_app_expand");
      tgPost("web_app_request_theme");
      tgPost("web_app_request_safe_area");
      tgPost("web_app_request_content_safe_area");
      if (!tg.initData) return say(w("telegram_only"));
      const table = new URLSearchParams(location.search).get("table");
      const signed = await api("/api/auth/telegram", { method: "POST", json: { init_data: tg.initData, table } });
      S.token = signed.token;
      if (signed.table === null) return say(w("which_table"));
      return showTable(signed.table);
    }
    if (PATH === "/activity") {
      const config = await api("/api/config");
      if (!config.activity) return say(w("no_activity"));
      await import(`${PREFIX}/static/build/activity.js`);
      const signed = await window.EscapeActivity.signIn(config.discord_client_id, api);
      S.token = signed.token;
      const found = await api(`/api/discord/channels/${signed.channelId}`);
      return showTable(found.table);
    }
    const config = await api("/api/config");
    if (config.local) return await localLobby();
    say(w("need_link"));
  } catch (error) { say(error.message); }
}

document.addEventListener("DOMContentLoaded", start);
