// Copy buttons of the developer settings (a new API key, a webhook secret). Without script the
// value stays in a read-only field to select by hand; the button appears only where it works.
const buttons = document.querySelectorAll('button[data-copy]');
for (const button of buttons) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  const status = document.createElement('span');
  status.className = 'copy-status muted';
  status.setAttribute('role', 'status');
  button.after(status);
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = 'Copied.';
    } catch {
      field.select();
      status.textContent = 'The browser did not let the page copy: the text is selected, press Ctrl+C (⌘C).';
    }
  });
}
