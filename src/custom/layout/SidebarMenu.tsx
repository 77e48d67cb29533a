import { useMemo, useState } from 'react';
import { Collapse, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { LinkBase, useLocation, useTranslate } from 'react-admin';
import { activeTrail, isGroup, visibleMenu, type MenuGroup, type MenuLeaf, type MenuNode } from '../../domain/access';
import { MENU } from '../../resources/definitions';
import { useCurrentUser } from '../../session';
import { menuIcons } from './menuIcons';

interface NodeProps {
  depth: number;
  trail: string[];
  open: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onNavigate: () => void;
}

const indent = (depth: number) => ({ pl: 2 + depth * 2 });

const NodeIcon = ({ icon }: { icon: string }) => {
  const Icon = menuIcons[icon];
  return Icon ? (
    <ListItemIcon sx={{ minWidth: 40, color: 'inherit' }}>
      <Icon fontSize="small" />
    </ListItemIcon>
  ) : null;
};

const Leaf = ({ node, depth, trail, onNavigate }: { node: MenuLeaf } & NodeProps) => {
  const translate = useTranslate();
  const active = trail[trail.length - 1] === node.id;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={LinkBase}
        to={node.to}
        selected={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        sx={indent(depth)}
      >
        <NodeIcon icon={node.icon} />
        <ListItemText primary={translate(node.label)} />
      </ListItemButton>
    </ListItem>
  );
};

const Group = ({ node, ...props }: { node: MenuGroup } & NodeProps) => {
  const translate = useTranslate();
  const expanded = props.open.has(node.id);
  return (
    <>
      {node.divider && <ListSubheader disableSticky>{translate(node.divider)}</ListSubheader>}
      {/* The group's toggle and its children's list share one item, so every <ul> holds only <li>s. */}
      <ListItem disablePadding sx={{ display: 'block' }}>
        <ListItemButton onClick={() => props.onToggle(node.id)} aria-expanded={expanded} sx={indent(props.depth)}>
          <NodeIcon icon={node.icon} />
          <ListItemText primary={translate(node.label)} />
          {expanded ? <ExpandLess /> : <ExpandMore />}
        </ListItemButton>
        <Collapse in={expanded} timeout="auto" unmountOnExit>
          <List disablePadding>
            {node.children.map((child) => (
              <Node key={child.id} node={child} {...props} depth={props.depth + 1} />
            ))}
          </List>
        </Collapse>
      </ListItem>
    </>
  );
};

const Node = ({ node, ...props }: { node: MenuNode } & NodeProps) =>
  isGroup(node) ? <Group node={node} {...props} /> : <Leaf node={node} {...props} />;

/** The left menu: only permitted entries; groups on the way to the current route open by themselves. */
export const SidebarMenu = ({ onNavigate }: { onNavigate: () => void }) => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const nodes = useMemo(() => visibleMenu(user, MENU), [user]);
  const trail = useMemo(() => activeTrail(pathname, nodes) ?? [], [pathname, nodes]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(trail));

  // A new route opens the groups on its way: state adjusted while rendering (React's advice), not in an effect.
  const [openedFor, setOpenedFor] = useState(trail);
  if (openedFor !== trail) {
    setOpenedFor(trail);
    setOpen((current) => (trail.every((id) => current.has(id)) ? current : new Set([...current, ...trail])));
  }

  const onToggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <nav aria-label={translate('app.menu.label')}>
      <List sx={{ py: 1 }}>
        {nodes.map((node) => (
          <Node key={node.id} node={node} depth={0} trail={trail} open={open} onToggle={onToggle} onNavigate={onNavigate} />
        ))}
      </List>
    </nav>
  );
};
