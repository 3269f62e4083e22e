/** What a screen reader reads with a control after its name: the texts its aria-describedby names, in order. */
export const descriptionOf = (element: Element): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
