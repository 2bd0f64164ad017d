import { css } from "lit";

/** The Playground's look, shared by the chat screen and the other kinds' runner. */
export const playgroundStyles = css`
  .layout {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    gap: 16px;
    align-items: start;
  }
  @media (max-width: 900px) {
    .layout {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  label.f {
    display: flex;
    flex-direction: column;
    gap: 4px;
    font-size: var(--gw-text-sm);
    color: var(--gw-text-muted);
  }
  textarea {
    font-family: var(--gw-mono);
    font-size: 12px;
    min-height: 64px;
  }
  textarea.body {
    min-height: 220px;
  }
  .answer {
    white-space: pre-wrap;
    min-height: 48px;
    padding: 10px 12px;
    background: var(--gw-surface-2);
    border: 1px solid var(--gw-border);
    border-radius: var(--gw-radius-sm);
  }
  .meta {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
    gap: 8px;
    font-size: var(--gw-text-sm);
  }
  .meta span {
    display: block;
    color: var(--gw-text-muted);
    font-size: var(--gw-text-xs);
  }
  pre {
    margin: 0;
    max-height: 260px;
    overflow: auto;
    font-size: 12px;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  img.generated {
    max-width: 100%;
    border: 1px solid var(--gw-border);
    border-radius: var(--gw-radius-sm);
  }
  ol.ranked {
    margin: 0;
    padding-left: 20px;
  }
`;
