// The live connection and the button posts of a companion page. The server renders every
// page; this only swaps in each new <main>, reconnects after sleep or a Wi-Fi drop (with
// back-off), and posts a button's notation. No rules live here.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const conn = document.getElementById("conn");
  let seq = Number(body.dataset.seq || 0);
  let lastRoll = null;
  let source = null;
  let delay = 500;
  let timer = null;
  let lastRefusal = false;
  let gone = false; // unpaired: no more reconnecting

  function status(text, cls) {
    conn.textContent = text;
    conn.className = "conn " + (cls || "");
  }

  function show(frame) {
    const main = document.getElementById("main");
    seq = frame.seq;
    main.dataset.seq = String(seq);
    if (frame.main === undefined) return; // nothing this page shows changed
    main.innerHTML = frame.main;
    animate();
  }

  function animate() {
    const dice = document.querySelector(".dice");
    const roll = dice ? dice.dataset.roll : null;
    if (dice && roll !== lastRoll && lastRoll !== null) dice.classList.add("rolling");
    lastRoll = roll;
  }

  function connect() {
    if (gone) return;
    clearTimeout(timer);
    if (source) source.close();
    source = new EventSource(base + "/events?since=" + seq);
    source.addEventListener("open", function () {
      delay = 500;
      if (conn.className.indexOf("warn") < 0 || !lastRefusal) status("", "");
      lastRefusal = false;
    });
    source.addEventListener("frame", function (e) {
      show(JSON.parse(e.data));
    });
    source.addEventListener("unpaired", unpaired);
    source.addEventListener("error", function () {
      // the phone slept or the Wi-Fi dropped: try again later, then re-read everything
      source.close();
      source = null;
      status("reconnecting…", "warn");
      timer = setTimeout(reconnect, delay + Math.random() * 250);
      delay = Math.min(delay * 2, 10000);
    });
  }

  function unpaired() {
    // a new code, or a new game (a restart, a resume): this phone's token is over. The
    // page showed the old hand and "reconnecting…" for ever: the server refused every
    // retry with 401 and an EventSource cannot see why
    gone = true;
    clearTimeout(timer);
    if (source) source.close();
    source = null;
    document.getElementById("main").innerHTML =
      "<p>This phone is no longer paired with the table (a new code or a new game): " +
      "scan your seat's code again.</p>";
    status("This phone was unpaired: scan the seat's new code.", "bad");
  }

  function reconnect() {
    if (gone) return;
    // ask first whether the server still knows this phone: only then listen again
    fetch(base + "/state", { credentials: "same-origin" }).then(function (r) {
      if (r.status === 401 || r.status === 403) unpaired();
      else connect();
    }).catch(function () {
      connect(); // no connection yet: the stream's error tries again later
    });
  }

  function post(path, data) {
    return fetch(base + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
      credentials: "same-origin",
    }).then(function (r) {
      if (r.ok) {
        // taken: an old "not sent" (the phone was offline) or refusal is over; it stayed
        // up through later moves when the live stream itself never dropped
        lastRefusal = false;
        if (conn.textContent !== "reconnecting…") status("", "");
        return;
      }
      // refused (the question moved on): say why and re-read the present state
      return r.json().then(function (j) {
        status(j.why || "refused", "warn");
        lastRefusal = true; // kept on screen across the re-read
        connect();
      });
    }).catch(function () {
      status("not sent: no connection", "bad");
    });
  }

  function offerId(el) {
    const box = el.closest("[data-offer]");
    return box ? Number(box.dataset.offer) : 0;
  }

  document.addEventListener("click", function (e) {
    const act = e.target.closest("button.act");
    if (act) {
      e.preventDefault();
      post("/act", {
        offer: offerId(act),
        kind: act.dataset.kind,
        text: act.dataset.text || "",
        count: Number(act.dataset.count || 1),
      });
      return;
    }
    const press = e.target.closest("button.press");
    if (press) {
      e.preventDefault();
      if (held) {
        held = false; // the release after a long press: it was sent already
        return;
      }
      post("/button", { button: press.dataset.button });
      return;
    }
    const revoke = e.target.closest("button.revoke");
    if (revoke) {
      e.preventDefault();
      fetch("/host/revoke", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ role: revoke.dataset.role }),
      });
    }
  });

  // SELECT held (as on the table's button): undo of the selection. The press goes out
  // once the finger has stayed HOLD_MS; the click that follows the release is swallowed.
  const HOLD_MS = 700;
  let holding = null;
  let held = false;
  document.addEventListener("pointerdown", function (e) {
    const press = e.target.closest("button.press[data-button=select]");
    if (!press) return;
    clearTimeout(holding);
    holding = setTimeout(function () {
      holding = null;
      held = true;
      press.classList.add("held");
      setTimeout(function () { held = false; }, 1500); // no click came (the page changed)
      post("/button", { button: "select", hold: true });
    }, HOLD_MS);
  });
  function letGo(e) {
    if (e.type === "pointerleave" && !(e.target.closest && e.target.closest("button.press"))) {
      return;
    }
    clearTimeout(holding);
    holding = null;
  }
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) {
    document.addEventListener(name, letGo, true);
  });
  document.addEventListener("contextmenu", function (e) {
    if (e.target.closest("button.press")) e.preventDefault(); // a long press is not a menu
  });

  document.addEventListener("submit", function (e) {
    const form = e.target;
    e.preventDefault();
    if (form.classList.contains("secret")) {
      const amount = form.querySelector("input[name=amount]").value.trim();
      form.reset(); // the bid leaves the screen at once
      post("/act", { offer: offerId(form), kind: "action", text: form.dataset.prefix + amount });
    } else if (form.classList.contains("faces")) {
      const faces = Array.from(form.querySelectorAll("select")).map(function (s) {
        return Number(s.value);
      });
      post("/act", { offer: offerId(form), kind: "dice", faces: faces });
    }
  });

  // back from sleep, or the network is back: reconnect now rather than after the back-off
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !source) reconnect();
  });
  window.addEventListener("online", function () {
    if (!source) reconnect();
  });

  document.getElementById("main").dataset.seq = String(seq);
  animate();
  connect();
})();
