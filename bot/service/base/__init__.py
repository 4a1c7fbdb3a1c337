"""What every room of the service stands on: pure values and rules, no collaborator.

Owns what crosses the service's edge (a request's chat and person, the refusal, the
delivery plan, text from a platform made safe, signed web tokens, the entry guard) and the
table's plain facts and rules (a move's log rows and its chance, the clock's rules, the
typed values of buttons, the undo rule, the daily castle's settings). It may import the
store's types, the engines and `languages`; nothing else of the service.
"""
