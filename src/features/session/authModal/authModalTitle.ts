/** The id of the auth modal's heading, which the unlock and sign-in views render when shown inside it. */
export const authModalTitleId = 'auth-modal-title';

export type ViewHeading = 'h1' | 'h2';

/** Inside the auth modal a view's title is a second-level heading: the screen under it keeps its h1. */
export const viewHeading = (inModal: boolean): ViewHeading => (inModal ? 'h2' : 'h1');
