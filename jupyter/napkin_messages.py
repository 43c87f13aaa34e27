"""The fields of a frontend's request that the kernel reads, checked by type
before anything changes: a request with a field of the wrong type is refused
whole, with a MessageError that names the field, and the notebook stays as
it was. (A cell id that is a list, kept as a cell's key, once made every
later request that named deleted cells fail.)"""
from napkin_runner import CellError


def type_name(value):
    return "null" if value is None else {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
                                         int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def refused(field, value, wanted):
    what = "the request's %s is %s, not %s; the kernel ran nothing" % (field, type_name(value), wanted)
    return CellError("MessageError", what, [what])


def code_text(code):
    if not isinstance(code, str):
        raise refused("content.code", code, "a string")
    return code


def is_silent(silent):
    if not isinstance(silent, bool):
        raise refused("content.silent", silent, "true or false")
    return silent


def cell_key(cell_id):
    """The frontend's cell id, or None where it sends none (consoles, nbclient)."""
    if cell_id is None or cell_id == "":
        return None
    if not isinstance(cell_id, str):
        raise refused("metadata.cellId", cell_id, "a string")
    return cell_id


def deleted_cells(metadata):
    """The ids of the cells deleted since the last request (JupyterLab's metadata.deletedCells)."""
    if metadata is None:
        return set()
    if not isinstance(metadata, dict):
        raise refused("metadata", metadata, "an object")
    deleted = metadata.get("deletedCells")
    if deleted is None:
        return set()
    if not isinstance(deleted, list):
        raise refused("metadata.deletedCells", deleted, "a list of cell ids")
    bad = next((d for d in deleted if not isinstance(d, str)), None)
    if bad is not None:
        raise refused("metadata.deletedCells entry", bad, "a cell id (a string)")
    return set(deleted)


def completion_request(code, cursor_pos):
    """(code, cursor position) of a complete_request, or a CellError. A position past the end
    (a frontend that counts UTF-16 units) is the end."""
    code = code_text(code)
    if isinstance(cursor_pos, bool) or not isinstance(cursor_pos, int) or cursor_pos < 0:
        raise refused("content.cursor_pos", cursor_pos, "a position in the code")
    return code, min(cursor_pos, len(code))
