// The felt's log for test_felt.py: a snapshot of the felt at the frame after each change
// of it (what is painted), distinct ones only, in window.__felt.
(() => {
  window.__felt = [];
  let queued = false;
  const cards = (root) => [...root.querySelectorAll('.card')].map((c) => c.dataset.card || '##');
  const overlaps = () => {
    const marks = [...document.querySelectorAll('.felt .marks li')].map((m) => m.getBoundingClientRect());
    const faces = [...document.querySelectorAll('.felt .card')].map((c) => c.getBoundingClientRect());
    let n = 0;
    for (const m of marks) for (const c of faces)
      if (m.left < c.right - 1 && c.left < m.right - 1 && m.top < c.bottom - 1 && c.top < m.bottom - 1) n++;
    return { marks: marks.length, overlaps: n };
  };
  const snap = () => {
    queued = false;
    const felt = document.querySelector('[data-testid="felt"]');
    if (!felt) return;
    const hands = {};
    for (const hd of felt.querySelectorAll('[data-testid^="hand-"].hand')) hands[hd.dataset.testid] = cards(hd);
    const row = felt.querySelector('[data-testid="boxes"]');
    const status = felt.querySelector('[data-testid="round-status"]');
    const s = {
      dealer: cards(felt.querySelector('[data-testid="dealer"]')),
      hands,
      insurance: [...felt.querySelectorAll('[data-testid^="box-insurance-"]')].map((e) => e.textContent),
      words: status ? status.textContent : '',
      betting: !!document.querySelector('[data-testid="deal"]'),
      ...overlaps(),
    };
    s.scroll = row ? row.scrollLeft : 0;
    s.overflows = row ? row.scrollWidth > row.clientWidth : false;
    const last = window.__felt.at(-1);
    if (!last || JSON.stringify({ ...last, t: 0 }) !== JSON.stringify({ ...s, t: 0 })) window.__felt.push(s);
  };
  new MutationObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(snap);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
