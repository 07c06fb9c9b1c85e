/** Both panels are 680 px high on wide screens (docs/spec-notes.md, Web: Terminaux); stacked on phones. */
export const PANEL_HEIGHT = 'lg:h-[680px]';
export const EDITOR_ID = 'terminal-editor';
/** Under this width the panels are stacked: choosing a terminal brings its editor into view. */
export const STACKED_QUERY = '(max-width: 1023.98px)';
