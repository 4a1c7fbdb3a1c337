// Escape's web board: one page, three doors (a personal link, a Telegram Mini App, a
// Discord Activity) and a spectator link. No framework: the server decides who sees what;
// this page shows it, listens for changes and sends presses over its socket.
"use strict";

const PREFIX = location.pathname.startsWith("/.proxy/") ? "/.proxy" : "";
const PATH = location.pathname.slice(PREFIX.length) || "/";
const $ = (id) => document.getElementById(id);

const S = {
  table: null, watch: null, token: null, seat: null, version: null, page: null,
  socket: null, retry: 500, busy: false, frames: 0,
};

// the page's words in the reader's language, filled in where the page was served
const WORDS = JSON.parse(($("words") || {}).textContent || "{}");
function w(key, args = {}) {
  return (WORDS[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in args ? String(args[name]) : all));
}
function say(text) { $("status").textContent = text || ""; }

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (S.token) headers.Authorization = "Bearer " + S.token;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(options.json);
  }
  const answer = await fetch(PREFIX + path, { credentials: "same-origin", ...options, headers });
  const body = (answer.headers.get("Content-Type") || "").includes("json") ? await answer.json() : {};
  if (!answer.ok) throw new Error(body.error || answer.statusText);
  return body;
}

function query(extra = {}) {
  const q = new URLSearchParams();
  if (S.watch) q.set("watch", S.watch);
  if (S.seat !== null) q.set("seat", S.seat);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const text = q.toString();
  return text ? "?" + text : "";
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

window.addEventListener("message", (event) => {  // Telegram tells a Mini App of new colours
  try {
    const data = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
    if (data && data.eventType === "theme_changed") applyTheme(data.eventData.theme_params);
  } catch (_) { /* not Telegram's */ }
});

// ----- rendering the table ---------------------------------------------------------------
function list(element, items) {
  element.replaceChildren(...items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

function button(label, onPress, extra = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onPress);
  Object.assign(b, extra);
  return b;
}

function placeRegions(layer, image, moves) {
  // one button a place; several moves at one place open a chooser of those moves
  const byBox = new Map();
  for (const m of moves) {
    if (!m.region) continue;
    const key = m.region.join(",");
    if (!byBox.has(key)) byBox.set(key, []);
    byBox.get(key).push(m);
  }
  const draw = () => {
    const w = image.naturalWidth, h = image.naturalHeight;
    if (!w || !h) return;
    layer.replaceChildren();
    for (const [key, here] of byBox) {
      const [x0, y0, x1, y1] = key.split(",").map(Number);
      const label = here.length === 1 ? here[0].label : here.map((m) => m.label).join(" or ");
      const b = button("", () => (here.length === 1 ? press(here[0].data) : choose(here)),
        { title: label, ariaLabel: label, className: "region" });
      b.setAttribute("aria-label", label);
      Object.assign(b.style, { left: (100 * x0 / w) + "%", top: (100 * y0 / h) + "%",
        width: (100 * (x1 - x0) / w) + "%", height: (100 * (y1 - y0) / h) + "%" });
      b.dataset.moves = here.map((m) => m.data).join(" ");
      layer.append(b);
    }
  };
  if (image.complete && image.naturalWidth) draw(); else image.onload = draw;
}

function choose(moves) {
  const box = $("chooser");
  box.hidden = false;
  box.replaceChildren(...moves.map((m) => button(m.label, () => press(m.data))),
    button(w("cancel"), () => { box.hidden = true; }));
  box.querySelector("button").focus();
}

function render(page) {
  S.page = page;
  S.version = page.version;
  document.title = `${page.title} #${page.session_id} · Escape`;
  $("title").textContent = w("heading", { game: page.title, id: page.session_id });
  $("who").textContent = page.you ? w("signed_in", { name: page.you }) : w("watching");
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("clock").textContent = page.clock;
  list($("players"), page.players.map((p) => {
    let name = p.name;
    if (p.kind === "ai") name = w("bot", { name });
    if (p.you) name = w("you", { name });
    return p.acting ? w("to_act", { name }) : name;
  }));
  [...$("players").children].forEach((li, i) => li.classList.toggle("acting", page.players[i].acting));
  const pick = $("seat");
  $("seat-pick").hidden = page.seats_you_may_play.length < 2;
  pick.replaceChildren(...page.seats_you_may_play.map((seat) => {
    const o = document.createElement("option");
    o.value = seat; o.textContent = page.players[seat].name; o.selected = seat === page.seat;
    return o;
  }));
  $("caption").textContent = page.caption;
  $("alt").textContent = page.alt;
  const started = page.status !== "lobby";
  const board = $("board");
  board.hidden = !started;
  if (started) {
    board.src = `${PREFIX}/api/tables/${page.session_id}/board.png${query({ v: page.version })}`;
    board.alt = page.alt || page.caption;
  }
  const onBoard = page.moves.filter((m) => m.on === "board");
  const onView = page.moves.filter((m) => m.on === "view");
  placeRegions($("board-regions"), board, onBoard);
  const mine = page.seat !== null && page.secrets && started && !S.watch;
  $("view-section").hidden = !mine;
  if (mine) {
    const view = $("view");
    view.src = `${PREFIX}/api/tables/${page.session_id}/view.png${query({ v: page.version, seat: page.seat })}`;
    view.alt = page.private_text;
    $("view-text").textContent = page.private_text;
    placeRegions($("view-regions"), view, onView);
  }
  $("chooser").hidden = true;
  const buttons = [...page.moves, ...page.shared].map((m) => button(m.label, () => press(m.data)));
  $("moves").replaceChildren(...buttons);
  if (!buttons.length) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = page.status === "active" ? w("nothing_to_do") : "";
    $("moves").append(p);
  }
  list($("log"), page.log);
  $("log").scrollTop = $("log").scrollHeight;
  $("own-log-box").hidden = !page.own_log.length;
  list($("own-log"), page.own_log);
  S.frames = page.frames;
  const slider = $("replay");
  slider.max = Math.max(0, page.frames - 1);
  if (slider.dataset.followed !== "no") slider.value = slider.max;
  $("replay-n").textContent = page.frames ? w("frame_of", { n: +slider.value + 1, count: page.frames }) : "";
  $("watch-link").textContent = page.watch_key
    ? `Spectators: ${location.origin}${PREFIX}/watch/${page.session_id}/${page.watch_key}` : "";
}

async function load() {
  if (S.table === null) return;
  try {
    render(await api(`/api/tables/${S.table}${query()}`));
    say("");
  } catch (error) { say(error.message); }
}

// ----- moves ------------------------------------------------------------------------------
function press(data) {
  if (!S.socket || S.socket.readyState !== WebSocket.OPEN || S.busy) return;
  S.busy = true;
  document.querySelectorAll("#moves button, .regions button").forEach((b) => { b.disabled = true; });
  S.socket.send(JSON.stringify({ press: { data, seat: S.seat === null ? S.page.seat : S.seat } }));
}

function pressed(answer) {
  S.busy = false;
  $("notes").textContent = answer.ok ? (answer.notes || []).join("\n") : answer.error;
  document.querySelectorAll("#moves button, .regions button").forEach((b) => { b.disabled = false; });
  if (!answer.ok && answer.stale) load();
}

// ----- live updates ---------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${PREFIX}/api/live`);
  S.socket = socket;
  socket.onopen = () => {
    S.retry = 500;
    socket.send(JSON.stringify({ hello: { table: S.table, watch: S.watch, token: S.token } }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.changed && message.changed.version !== S.version) load();
    else if (message.pressed) pressed(message.pressed);
    else if (message.error) say(message.error);
  };
  socket.onclose = () => {
    if (S.socket !== socket) return;
    S.busy = false;
    setTimeout(() => { connect(); load(); }, S.retry);
    S.retry = Math.min(S.retry * 2, 15000);
  };
}

function showTable(table) {
  S.table = table;
  load().then(connect);
}

// ----- the replay slider ------------------------------------------------------------------
function showFrame() {
  const slider = $("replay");
  slider.dataset.followed = +slider.value === +slider.max ? "yes" : "no";
  const n = +slider.value;
  $("replay-n").textContent = w("frame_of", { n: n + 1, count: S.frames });
  const frame = $("frame");
  frame.hidden = false;
  frame.src = `${PREFIX}/api/tables/${S.table}/frames/${n}.png${query()}`;
  frame.alt = w("frame_alt", { n: n + 1 });
}

// ----- local play -------------------------------------------------------------------------
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
  $("game").replaceChildren(...found.games.map((g) => {
    const o = document.createElement("option");
    o.value = g.id; o.textContent = w("game_choice", { game: g.title, players: g.players });
    return o;
  }));
  $("new-game").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/local/tables", { method: "POST",
        json: { game: $("game").value, players: $("player-names").value, options: $("options").value } });
      location.assign(`${PREFIX}/table/${made.table}`);
    } catch (error) { say(error.message); }
  };
}

// ----- the doors --------------------------------------------------------------------------
async function start() {
  $("replay").addEventListener("input", showFrame);
  $("seat").addEventListener("change", () => { S.seat = +$("seat").value; load(); });
  let m;
  try {
    if ((m = PATH.match(/^\/table\/(\d+)$/))) return showTable(+m[1]);
    if ((m = PATH.match(/^\/watch\/(\d+)\/([\w-]+)$/))) { S.watch = m[2]; return showTable(+m[1]); }
    if (PATH === "/tg") {
      const tg = telegramParams();
      applyTheme(tg.theme ? JSON.parse(tg.theme) : null);
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
