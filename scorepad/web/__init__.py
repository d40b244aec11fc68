"""The HTML pages: one blueprint per area (games, deals, sheets, the referee's desk, paper,
export and import) and the forms they read. Every read and write goes through
:mod:`scorepad.storage`; who may write is :mod:`scorepad.access`."""
