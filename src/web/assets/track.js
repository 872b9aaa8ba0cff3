// The track form's live suggestion: while a number is typed, svc's inference (GET /track/infer)
// names the likely shipping line and kind of number with its confidence, and a button fills the
// two selects with it. The form works the same without this script (svc then detects them itself).

const DEBOUNCE_MS = 300;
/** Shorter than any carrier number: not worth asking about. */
const MIN_LENGTH = 4;

const form = document.querySelector('form[data-infer-url]');
if (form) enhance(form);

function enhance(form) {
  const number = form.querySelector('#track-number');
  const scac = form.querySelector('#track-scac');
  const type = form.querySelector('#track-type');
  const box = form.querySelector('#track-suggestion');
  if (!number || !scac || !type || !box) return;
  let timer;
  let inFlight;
  let asked = '';

  const hide = () => {
    box.hidden = true;
    box.replaceChildren();
    box.removeAttribute('data-state');
  };

  async function ask() {
    const value = number.value.trim();
    if (value === asked) return;
    asked = value;
    inFlight?.abort();
    if (value.length < MIN_LENGTH) return hide();
    const controller = new AbortController();
    inFlight = controller;
    let answer;
    try {
      const url = `${form.dataset.inferUrl}?number=${encodeURIComponent(value)}`;
      const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', signal: controller.signal });
      // A sign-in page after the session ended is HTML: nothing to suggest.
      if (!(res.headers.get('content-type') ?? '').includes('application/json')) return hide();
      answer = await res.json();
    } catch (err) {
      if (err.name !== 'AbortError') hide();
      return;
    }
    if (controller !== inFlight) return;
    show(answer);
  }

  function show(answer) {
    box.replaceChildren();
    if (answer.error) {
      box.append(paragraph(`No suggestion: ${answer.error} Choose the line below if you know it.`, 'muted'));
    } else if (!answer.suggestions?.length) {
      box.append(paragraph('svc cannot tell the shipping line from this number: choose it below.', 'muted'));
    } else {
      const heading = answer.decision === 'auto_select' ? 'svc detects:' : answer.decision === 'needs_confirmation' ? 'Likely, please confirm:' : 'Possible, not sure:';
      box.append(paragraph(heading, 'suggestion-heading'));
      const list = document.createElement('ul');
      for (const s of answer.suggestions) list.append(item(s, answer.number_type));
      box.append(list);
    }
    if (answer.warning) box.append(paragraph(`Check the number: ${answer.warning}.`, 'warning'));
    box.dataset.state = 'shown';
    box.hidden = false;
  }

  function item(suggestion, numberType) {
    const li = document.createElement('li');
    li.append(document.createTextNode(suggestion.text));
    if (!scac.querySelector(`option[value="${CSS.escape(suggestion.scac)}"]`)) {
      li.append(document.createTextNode(' '), span('(svc cannot track this line here)', 'muted'));
      return li;
    }
    const use = document.createElement('button');
    use.type = 'button';
    use.className = 'secondary small';
    use.textContent = 'Use it';
    use.setAttribute('aria-label', `Use it: ${suggestion.text}`);
    use.addEventListener('click', () => {
      scac.value = suggestion.scac;
      type.value = numberType;
      for (const select of [scac, type]) select.dispatchEvent(new Event('change', { bubbles: true }));
      use.textContent = 'Chosen';
      use.disabled = true;
      scac.focus();
    });
    li.append(document.createTextNode(' '), use);
    return li;
  }

  number.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(ask, DEBOUNCE_MS);
  });
  // A number already there (the form re-shown after a refusal, or ?number= in a link).
  if (number.value.trim()) void ask();
}

function paragraph(text, className) {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

function span(text, className) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}
