// The advisor form: the same answers as locksim advise, for every
// combination of the situation's dimensions, from the data the report
// embeds (id advisor-data). No server, no network: it works from file://.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("advisor-data").textContent);
  var form = document.getElementById("advisor");
  var out = document.getElementById("advisor-answer");

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function pct(p) {
    return (Math.round(p * 1000) / 10) + "%";
  }
  function list(parent, id, title, items) {
    if (!items || items.length === 0) return;
    parent.appendChild(el("h4", title));
    var ul = el("ul");
    ul.id = id;
    items.forEach(function (t) { ul.appendChild(el("li", t)); });
    parent.appendChild(ul);
  }
  function settingsText(s) {
    var parts = [];
    if (s.ttl) parts.push("TTL " + s.ttl);
    if (s.renew_every) parts.push("renew every " + s.renew_every);
    if (s.wait_replicas) parts.push("WAIT " + s.wait_replicas + " replica(s)");
    if (s.appendfsync) parts.push("appendfsync " + s.appendfsync);
    if (s.store_token_check) parts.push("the store checks fencing tokens");
    if (s.nodes) parts.push(s.nodes + " nodes, quorum " + s.quorum);
    if (s.permits) parts.push(s.permits + " permits");
    if (s["for"]) parts.push("for " + s["for"]);
    return parts.join("; ");
  }
  function residualText(r) {
    var t = r.pattern + ": " + r.runs + " of " + r.seeds + " seeds under " + r.scenario +
      " (" + pct(r.rate) + ", 95% interval " + pct(r.lo) + "–" + pct(r.hi) + ")";
    if (r.one_seed) t += "; judged on one seed";
    else if (r.few) t += "; few seeds";
    if (r.replay) t += "; replay: " + r.replay;
    return t;
  }

  form.innerHTML = "";
  data.dimensions.forEach(function (d) {
    var label = el("label", d.question + " ");
    var sel = el("select");
    sel.name = d.flag;
    sel.id = "advisor-" + d.flag;
    d.values.forEach(function (v) {
      var o = el("option", v);
      o.value = v;
      sel.appendChild(o);
    });
    label.appendChild(sel);
    var p = el("p");
    p.appendChild(label);
    form.appendChild(p);
  });

  function key() {
    return data.dimensions.map(function (d) { return form.elements[d.flag].value; }).join(" ");
  }

  function render() {
    var k = key();
    var i = data.index[k];
    out.innerHTML = "";
    if (i === undefined) {
      out.appendChild(el("p", "No answer for " + k + ".", "bad"));
      return;
    }
    var a = JSON.parse(JSON.stringify(data.answers[i.answer]));
    a.situation = i.situation;
    if (a.evidence) a.evidence = a.evidence.map(function (j) { return data.judged[j]; });
    out.dataset.key = k;
    var cmd = el("p");
    cmd.appendChild(el("code", "locksim advise " + data.dimensions.map(function (d) { return "--" + d.flag + " " + form.elements[d.flag].value; }).join(" ")));
    cmd.id = "advisor-command";
    out.appendChild(cmd);
    if (a.none_safe) {
      out.appendChild(el("p", "No pattern is safe here. Least bad: " + (a.least_bad || "none") + ".", "bad")).id = "advisor-none-safe";
    }
    var use = el("ul");
    use.id = "advisor-use";
    a.use.forEach(function (p) {
      var li = el("li");
      li.appendChild(el("strong", p));
      var s = a.settings[p];
      if (s) li.appendChild(document.createTextNode(" — " + settingsText(s)));
      li.dataset.pattern = p;
      use.appendChild(li);
    });
    if (a.use.length > 0) {
      out.appendChild(el("h4", "Use"));
      out.appendChild(use);
    }
    out.appendChild(el("p", "Counts: " + a.counts + "."));
    list(out, "advisor-residual", "Residual risk", a.residual.map(residualText));
    list(out, "advisor-not-protected", "Not protected against", a.not_protected);
    list(out, "advisor-not-judged", "Not judged", a.not_judged);
    list(out, "advisor-real", "On real Redis", (a.real || []).map(function (r) { return r.text; }));
    list(out, "advisor-mitigations", "What would make it safe", (a.mitigations || []).map(function (m) {
      return m.change + " (" + m.flags + "): use " + m.use.join(", ") + "; " + residualText(m.residual);
    }));
    if (a.runner_up) {
      var ru = el("p", "Runner-up: " + a.runner_up.pattern + " — " + a.runner_up.why);
      ru.id = "advisor-runner-up";
      out.appendChild(ru);
    }
    var det = el("details");
    det.appendChild(el("summary", "The answer as locksim advise --json prints it"));
    var pre = el("pre");
    pre.id = "advisor-json";
    pre.textContent = JSON.stringify(a, null, 2);
    det.appendChild(pre);
    out.appendChild(det);
  }

  form.addEventListener("change", render);
  render();
})();
