"""An import-linter contract type: no import circle among the modules of some packages.

The built-in `acyclic_siblings` contract looks for circles between the children of a
package, summed up per child; it misses a package that imports one of its own modules
which imports the package back (`render` <-> `render.rules`), and it is only as strict as
the graph it is given. This contract finds every strongly connected group of modules in
the import graph (Tarjan's algorithm), each module counted on its own, so any circle of
two or more modules anywhere under `containers` breaks it. The graph counts the imports
made for type checking only when the configuration's `exclude_type_checking_imports` is
false (pyproject.toml), which it is: a circle hidden under `if TYPE_CHECKING:` is still a
circle a reader has to follow. No allowlist: a circle is broken by giving what both
modules need one owner that both import.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set

import grimp
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

MAX_IMPORTS_SHOWN = 8  # of one circle: enough to see where it runs


def circles(modules: Iterable[str], imports_of: Mapping[str, Set[str]]) -> list[list[str]]:
    """The groups of two or more modules that import one another, directly or round a
    circle (the strongly connected components of the import graph), each sorted, in
    order. Iterative, so a deep graph cannot exhaust the stack."""
    modules = sorted(modules)
    inside = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(sorted(imports_of.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in inside:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports_of.get(target, ())))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return sorted(found)


class NoImportCirclesContract(Contract):
    type_name = "no_import_circles"

    containers = fields.SetField(subfield=fields.ModuleField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        names = sorted(container.name for container in self.containers)  # type: ignore[attr-defined]
        modules = {
            module
            for module in graph.modules
            if any(module == name or module.startswith(name + ".") for name in names)
        }
        imports_of = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
        found = circles(modules, imports_of)
        shown = []
        for group in found:
            members = set(group)
            lines = []
            for importer in group:
                for imported in sorted(imports_of[importer] & members):
                    at = graph.get_import_details(importer=importer, imported=imported)
                    numbers = ", ".join(str(d["line_number"]) for d in at)
                    lines.append(f"{importer} -> {imported} (l. {numbers})")
            shown.append({"modules": group, "imports": lines})
        return ContractCheck(kept=not found, warnings=None, metadata={"circles": shown})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for circle in check.metadata["circles"]:
            output.print_error(f"Import circle: {', '.join(circle['modules'])}")
            for line in circle["imports"][:MAX_IMPORTS_SHOWN]:
                output.indent_cursor()
                output.print_error(f"- {line}", bold=False)
            extra = len(circle["imports"]) - MAX_IMPORTS_SHOWN
            if extra > 0:
                output.indent_cursor()
                output.print_error(f"(and {extra} more imports)", bold=False)
            output.new_line()
