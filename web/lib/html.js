// htm bound to Preact's h: the JSX-like templates every page uses, with no build step.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
