"""scorepad: a score pad and rules referee for Hand and Foot."""
